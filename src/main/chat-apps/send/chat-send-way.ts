/**
 * The ways send-text can drive a chat app (docs/desktop.md, "Sending messages"): through the app's
 * accessibility tree first, by reading the screen (OCR) when the app exposes no usable tree. Both
 * keep the same promises — exactly one chat reads the name, header and draft verified, asked every
 * time, the send key pressed once, never retried — and answer with the same result.
 */
import { sendText, type SendTextDeps, type SendTextRequest, type SendTextResult } from './send-text'

export interface ChatSendWay {
  readonly kind: 'accessibility' | 'screen'
  /**
   * The send's result, or null when this way cannot reach the app — decided before anything in the
   * app was touched, so the next way may start from the beginning.
   */
  send(request: SendTextRequest, deps: SendTextDeps): Promise<SendTextResult | null>
}

/** Reading the screen: works on any app that shows its chats (docs/desktop.md, "Finding the layout"). */
export const screenChatSender: ChatSendWay = { kind: 'screen', send: sendText }

/** The first way that can reach the app sends; the screen way always can (it says `not sent` itself). */
export async function sendTextByFirstWay(ways: ChatSendWay[], request: SendTextRequest, deps: SendTextDeps): Promise<SendTextResult> {
  for (const way of ways) {
    const result = await way.send(request, deps)
    if (result) return result
  }
  return screenChatSender.send(request, deps) as Promise<SendTextResult>
}
