/**
 * What may be sent before anything on screen is touched (docs/desktop.md, "Sending messages"): the
 * app must be enabled, the chat on its allowlist when it has one, and the chat under its rate limit.
 */
import type { Settings } from '../../../shared'
import { normalizeForMatch, sameText } from '../../desktop'
import { quotedList, reasonText, sendReason, type SendReason } from './send-reasons'

/** A send as the rate limit counts it: `sent` and `unknown` both pressed the send key. */
export interface SendRecord {
  app: string
  target: string
  status: 'sent' | 'not_sent' | 'unknown'
  at: number
}

/** Where sends are remembered across runs and processes (the conversation store's SQLite file). */
export interface SendLog {
  /** When the send key was pressed for this chat of this app since `since` (sent or unknown). */
  pressedSince(app: string, target: string, since: number): number[]
  record(entry: SendRecord & { reason: string; conversationId?: string | null; runId?: string | null }): void
}

export type SendLimitSettings = Pick<Settings, 'chatApps' | 'chatSendMinIntervalSec' | 'chatSendPerHour'>

export type SendRefusal = { code: 'disabled' | 'not_allowlisted' | 'rate_interval' | 'rate_hourly'; message: string; why: SendReason }

const refusal = (code: SendRefusal['code'], why: SendReason): SendRefusal => ({ code, message: reasonText(why), why })

const HOUR_MS = 60 * 60_000

/** Null when the send may go ahead; otherwise why not, in words the user and the model read. */
export function checkSendAllowed(
  settings: SendLimitSettings,
  app: { id: string; name: string },
  target: string,
  log: SendLog,
  now: number = Date.now()
): SendRefusal | null {
  const config = settings.chatApps[app.id]
  if (!config?.enabled) {
    return refusal('disabled', sendReason('disabled', { app: app.name, id: app.id }))
  }
  if (config.allowlist.length > 0 && !config.allowlist.some((allowed) => sameText(allowed, target))) {
    return refusal('not_allowlisted', sendReason('notAllowlisted', { chat: target, app: app.name, allowlist: quotedList(config.allowlist) }))
  }
  const pressed = log.pressedSince(app.id, target, now - HOUR_MS)
  const last = Math.max(0, ...pressed)
  const interval = settings.chatSendMinIntervalSec * 1000
  if (interval > 0 && now - last < interval) {
    const wait = Math.ceil((interval - (now - last)) / 1000)
    return refusal('rate_interval', sendReason('rateInterval', { seconds: settings.chatSendMinIntervalSec, chat: target, wait }))
  }
  if (pressed.length >= settings.chatSendPerHour) {
    const oldest = Math.min(...pressed)
    const wait = Math.ceil((oldest + HOUR_MS - now) / 60_000)
    return refusal('rate_hourly', sendReason('rateHourly', { perHour: settings.chatSendPerHour, chat: target, wait }))
  }
  return null
}

/** A send log in memory (tests; a process without a store). */
export class MemorySendLog implements SendLog {
  readonly entries: Array<SendRecord & { reason: string }> = []
  pressedSince(app: string, target: string, since: number): number[] {
    return this.entries
      .filter((e) => e.app === app && e.status !== 'not_sent' && e.at >= since && sameText(e.target, target))
      .map((e) => e.at)
  }
  record(entry: SendRecord & { reason: string }): void {
    this.entries.push(entry)
  }
}

/** What the send log needs of the conversation store. */
export interface ChatSendStore {
  recordChatSend(entry: SendRecord & { targetKey: string; reason: string; conversationId?: string | null; runId?: string | null }): void
  chatSendsPressedSince(app: string, targetKey: string, since: number): number[]
  audit(entry: { kind: string; conversationId?: string | null; runId?: string | null; actor: string; data: unknown }): void
}

/** The send log in the store's SQLite file: shared by the app and every CLI process, kept across restarts, audited. */
export function storeSendLog(store: ChatSendStore): SendLog {
  return {
    pressedSince: (app, target, since) => store.chatSendsPressedSince(app, normalizeForMatch(target), since),
    record: (entry) => {
      store.recordChatSend({ ...entry, targetKey: normalizeForMatch(entry.target) })
      store.audit({
        kind: 'chat_send',
        conversationId: entry.conversationId ?? null,
        runId: entry.runId ?? null,
        actor: 'desktop_send_text',
        data: { app: entry.app, target: entry.target, status: entry.status, reason: entry.reason }
      })
    }
  }
}
