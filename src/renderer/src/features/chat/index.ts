/** The chat: the open conversation's timeline (messages, tool calls, run outcomes) and the composer. */
import { useDraftStore } from './draft'

export { ChatView } from './ChatView'
export { Composer } from './Composer'

/** Puts the caret in the composer (after New conversation, from anywhere). */
export function focusComposer(): void {
  useDraftStore.getState().focus()
}
