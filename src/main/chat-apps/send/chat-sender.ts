/**
 * The front of the send-text task for the tool, the CLI and the app (docs/desktop.md, "Sending
 * messages"): which profile, whether the app is enabled and the chat allowed and under its rate
 * limit — all before the screen is touched — then one task at a time with its deadline, and every
 * outcome written to the send log.
 */
import type { Settings } from '../../../shared'
import { accessibilityBackend, type AccessibilityBackend } from '../../desktop/accessibility'
import { loadChatApps, profileFor, type ChatAppCatalog, type LoadedProfile } from '../profiles'
import type { Operator, OcrEngine } from '../../desktop'
import { checkSendAllowed, type SendLog } from './send-limits'
import { screenChatSender, sendTextByFirstWay, type ChatSendWay } from './chat-send-way'
import { type ConfirmAnswer, type SendConfirmation, type SendStep, type SendTextResult } from './send-text'
import { reasonText, sendReason, type SendReason } from './send-reasons'
import { TaskQueue } from './task-queue'
import { treeChatSender } from './tree-chat-sender'
import { applyWatermark } from './watermark'

export type ChatSenderSettings = Pick<
  Settings,
  'chatApps' | 'chatSendMinIntervalSec' | 'chatSendPerHour' | 'chatWatermark' | 'chatWatermarkSuffix' | 'chatSendTimeoutSec'
>

export interface ChatSenderOptions {
  desktop: Operator
  /** Started on the first send that gets as far as reading the screen. */
  ocr: () => OcrEngine
  log: SendLog
  settings: () => ChatSenderSettings
  /** Where the user's own profiles are (<data folder>/desktop-apps). */
  dataDir?: string
  /** The shipped profiles' folder (tests); default resources/desktop-apps. */
  builtinDir?: string
  platform?: NodeJS.Platform
  /**
   * The accessibility backend tried before the screen (docs/desktop.md, "Sending messages"):
   * default this OS's; null reads the screen only.
   */
  accessibility?: AccessibilityBackend | null
}

export interface SendTextInput {
  app: string
  to: string
  text: string
  /** Overrides the setting for this send. */
  watermark?: Settings['chatWatermark']
  /** A profile file for this send only (`--profile FILE`). */
  profileFile?: string
  runId: string
  conversationId: string
  signal?: AbortSignal
  confirm(confirmation: SendConfirmation, signal: AbortSignal): Promise<ConfirmAnswer>
  onStep?(step: SendStep): void
}

export interface SendTextOutcome extends SendTextResult {
  app: string
  appName: string
  target: string
  /** Exactly what was (or would have been) sent, watermark included. */
  text: string
}

export class ChatSender {
  private readonly queue = new TaskQueue()
  /** The tree first, the screen when the app exposes no usable tree. */
  private readonly ways: ChatSendWay[]

  constructor(private readonly options: ChatSenderOptions) {
    const backend = options.accessibility === undefined ? accessibilityBackend(options.platform ?? process.platform) : options.accessibility
    this.ways = backend ? [treeChatSender(backend), screenChatSender] : [screenChatSender]
  }

  /** The profiles in force, with the files that could not be read. */
  catalog(extraFile?: string): ChatAppCatalog {
    return loadChatApps({ dataDir: this.options.dataDir, builtinDir: this.options.builtinDir, extraFile })
  }

  /** Tasks queued or running. */
  get pending(): number {
    return this.queue.size
  }

  async send(input: SendTextInput): Promise<SendTextOutcome> {
    const settings = this.options.settings()
    const watermark = input.watermark ?? settings.chatWatermark
    const text = applyWatermark(input.text, watermark, settings.chatWatermarkSuffix)
    const target = input.to.trim()
    const base = { app: input.app, appName: input.app, target, text }
    const refuse = (why: SendReason): SendTextOutcome => ({ ...base, status: 'not_sent', reason: reasonText(why), why, steps: [], durationMs: 0 })

    let loaded: LoadedProfile | undefined
    try {
      const catalog = this.catalog(input.profileFile)
      loaded = catalog.profiles.find((p) => p.profile.id === input.app)
      if (!loaded) {
        const known = catalog.profiles.map((p) => p.profile.id).join(', ') || 'none'
        return refuse(sendReason('noProfile', { app: input.app, known }))
      }
    } catch (error) {
      return refuse(sendReason('failed', { error: (error as Error).message }))
    }
    const profile = loaded.profile
    const outcome = { ...base, appName: profile.name.en }
    const platform = profileFor(profile, this.options.platform)
    if (!platform) return { ...refuse(sendReason('noPlatform', { app: profile.name.en, os: this.options.platform ?? process.platform })), appName: profile.name.en }
    if (target === '') return { ...refuse(sendReason('emptyChat')), appName: profile.name.en }
    if (input.text.trim() === '') return { ...refuse(sendReason('emptyText')), appName: profile.name.en }

    const result = await this.queue.runAndWait(
      async (deadline): Promise<SendTextResult> => {
        // Checked when the task's turn comes, so two queued sends to one chat cannot both pass.
        const refusal = checkSendAllowed(settings, { id: profile.id, name: profile.name.en }, target, this.options.log)
        if (refusal) return { status: 'not_sent', reason: refusal.message, why: refusal.why, steps: [], durationMs: 0 }
        return sendTextByFirstWay(
          this.ways,
          { profile, platform, target, text },
          {
            desktop: this.options.desktop,
            ocr: this.options.ocr(),
            caller: { runId: input.runId, conversationId: input.conversationId },
            deadline,
            confirm: input.confirm,
            onStep: input.onStep
          }
        )
      },
      { timeoutMs: settings.chatSendTimeoutSec * 1000, signal: input.signal }
    )
    this.record(outcome, result.status, result.reason, input)
    return { ...outcome, ...result }
  }

  private record(outcome: { app: string; target: string }, status: SendTextResult['status'], reason: string, input: SendTextInput): void {
    try {
      this.options.log.record({ app: outcome.app, target: outcome.target, status, reason, at: Date.now(), conversationId: input.conversationId, runId: input.runId })
    } catch (error) {
      console.warn(`[deskclaw] could not record a chat send: ${(error as Error).message}`)
    }
  }
}
