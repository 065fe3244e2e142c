/** What the hardware tools share: the device service, failures in words, and the port a call is about. */
import { errorMessage } from '../../../shared'
import { unescapeSerialText, type DeviceService } from '../../devices'
import { fail, text, withDisplay, type ToolOutput } from '../define-tool'

export interface HardwareToolServices {
  devices: DeviceService
}

export async function attempt(action: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await action()
  } catch (error) {
    return withDisplay(fail(errorMessage(error)), text('result.failed'))
  }
}

/** No such open session: what the serial tools answer for a closed or unknown session id. */
export function noSession(sessionId: string, forLlm: string): ToolOutput {
  return withDisplay({ forLlm, isError: true }, text('result.noSession', { session: sessionId }))
}

/** Result lines (ToolOutput.display) every hardware tool may give: spread into each hardware tool's messages. */
export const HARDWARE_RESULTS = {
  en: {
    'result.failed': 'The device action did not succeed; the output below says why.',
    'result.noSession': 'No open serial session {session}.'
  },
  'zh-CN': {
    'result.failed': '设备操作未成功，原因见下方输出。',
    'result.noSession': '没有打开的串口会话 {session}。'
  }
} as const

/** The port of a session, for rules and grants ("allow for this conversation" covers that port). */
export function portOfSession(services: HardwareToolServices, sessionId: string): string {
  return services.devices.sessions.get(sessionId)?.path ?? `session ${sessionId}`
}

/** One grant per port, shared by every serial tool. */
export const portScope = (port: string) => `serial-port:${port}`

export const SERIAL_LABELS = {
  en: { port: 'Port', settings: 'Settings', data: 'Data', session: 'Session', until: 'Until', timeout: 'Timeout' },
  'zh-CN': { port: '端口', settings: '参数', data: '数据', session: '会话', until: '直到', timeout: '超时' }
} as const

/** Text as bytes, with the escapes a model writes (`AT\r\n`). */
export function textBytes(text: string): Buffer {
  return Buffer.from(unescapeSerialText(text), 'utf8')
}

/** "48 65 6c" / "48656c" / "0x48,0x65" → bytes; throws a clear error for anything else. */
export function hexBytes(hex: string): Buffer {
  const digits = hex.replace(/0x/gi, '').replace(/[\s,:-]/g, '')
  if (digits.length === 0 || digits.length % 2 !== 0 || /[^0-9a-f]/i.test(digits)) {
    throw new Error(`"${hex}" is not hex bytes (write e.g. "41 54 0d 0a")`)
  }
  return Buffer.from(digits, 'hex')
}

/** Bytes for the model: text when it is text, with a hex dump when it is not. */
export function describeBytes(data: Buffer): string {
  if (data.length === 0) return '(nothing)'
  const text = data.toString('utf8')
  // Control characters other than tab, CR and LF mean binary data.
  const printable = ![...text].some((char) => {
    const code = char.charCodeAt(0)
    return (code < 32 && char !== '\t' && char !== '\r' && char !== '\n') || code === 127 || char === '\ufffd'
  })
  const hex = data.subarray(0, 256).toString('hex').replace(/(..)/g, '$1 ').trim()
  return printable ? JSON.stringify(text) : `${data.length} bytes: ${hex}${data.length > 256 ? ' …' : ''}`
}
