import { errorMessage, newId, type Notice, type NoticeReason } from '../../shared'

/**
 * Notices for the person at this machine (docs/tools.md, "Notifications"): the `notify` tool's, and
 * a scheduled run's (finished, failed, waiting for an approval). Each goes out two ways at once: as
 * a bridge event, which the browser UI shows with the Notifications API and the CLI prints as a
 * line, and to the native notifier when the front door has one (the Electron shell's).
 */

/** What a notice is made from; the service adds its id and time. */
export interface NoticeInput {
  reason: NoticeReason
  title: string
  body: string
  text?: Notice['text']
  conversationId?: string
  runId?: string
}

/** Shows a notice the operating system's way. Implemented in src/main/electron/ (Electron's Notification). */
export interface NativeNotifier {
  /** False when the system cannot show notifications now (no notification daemon): the event still goes out. */
  supported(): boolean
  show(notice: Notice): void
}

/** What the app, the notify tool and scheduled runs use. */
export interface NotificationService {
  notify(input: NoticeInput): NoticeDelivery
}

/** Where a notice went: always the bridge event; `native` when a native notifier showed it. */
export interface NoticeDelivery {
  notice: Notice
  native: boolean
  /** Why the native notifier did not show it (unsupported, or its error). */
  nativeProblem?: string
}

export interface NotificationsOptions {
  /** Sends the notice to every front door (the app's event bus). */
  publish(notice: Notice): void
  native?: NativeNotifier
}

export class Notifications implements NotificationService {
  constructor(private readonly options: NotificationsOptions) {}

  notify(input: NoticeInput): NoticeDelivery {
    const notice: Notice = { id: newId('note'), at: Date.now(), ...input }
    this.options.publish(notice)
    const { native } = this.options
    if (!native) return { notice, native: false }
    if (!native.supported()) return { notice, native: false, nativeProblem: 'this system shows no native notifications' }
    try {
      native.show(notice)
      return { notice, native: true }
    } catch (error) {
      return { notice, native: false, nativeProblem: errorMessage(error) }
    }
  }
}
