/** What the web tools share: their services, limits, result lines and approval labels. */
import type { Settings } from '../../../shared'

/** One hop's verdict at run time: the address to connect to, or why not (docs/risk.md, "Network"). */
export type WebHop =
  | {
      ok: true
      host: string
      address: { address: string; family: 4 | 6 }
      /** Every address the name had, all checked: the socket may try each (IPv6 and IPv4), and no other. */
      addresses?: Array<{ address: string; family: 4 | 6 }>
    }
  | { ok: false; code: 'scheme' | 'invalid' | 'denied' | 'private' | 'rebound' | 'unresolved'; message: string; params: Record<string, string> }

/**
 * The URL guardian as the web tools use it, wired by the composition root (tools sit below risk/
 * and never import it): `resolve` before the judgement so it sees the addresses, `checkHop` for
 * every hop of the run.
 */
export interface WebToolServices {
  resolve(url: string): Promise<{ ok: true; addresses: string[] } | { ok: false; message: string }>
  checkHop(tool: string, url: string, first: boolean): Promise<WebHop>
  settings(): Pick<Settings, 'webMaxBytes' | 'webTimeoutSec'>
}

/** Redirects followed before a fetch gives up. */
export const MAX_REDIRECTS = 5

/** Result lines every web tool may give (spread into each tool's messages). */
export const WEB_RESULTS = {
  en: {
    'result.blocked': 'Stopped before {url}: {reason}',
    'result.tooManyRedirects': 'More than {max} redirects; stopped at {url}.',
    'result.timeout': 'No complete answer from {url} within {seconds} s.',
    'result.failed': 'The request to {url} failed: {reason}',
    'result.stopped': 'Stopped.'
  },
  'zh-CN': {
    'result.blocked': '已在 {url} 之前停止：{reason}',
    'result.tooManyRedirects': '重定向超过 {max} 次，停在 {url}。',
    'result.timeout': '{url} 在 {seconds} 秒内没有给出完整回应。',
    'result.failed': '对 {url} 的请求失败：{reason}',
    'result.stopped': '已停止。'
  }
} as const

/** Labels the web tools' approvals use. */
export const WEB_LABELS = {
  en: { url: 'URL', method: 'Method', headers: 'Headers', body: 'Body', addresses: 'Resolves to', unresolved: 'Does not resolve', limits: 'Limits', limitsValue: 'at most {bytes} bytes, {seconds} s' },
  'zh-CN': { url: '网址', method: '方法', headers: '请求头', body: '请求体', addresses: '解析到', unresolved: '无法解析', limits: '限制', limitsValue: '最多 {bytes} 字节，{seconds} 秒' }
} as const
