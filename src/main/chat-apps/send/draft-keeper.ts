/**
 * The draft a chat already held, read exactly before the task replaces it and put back when the
 * task stops before sending (docs/desktop.md, "Leaving no trace"): select all and copy in the
 * focused draft box, read the clipboard; a marker put there first tells "nothing was copied" (an
 * empty draft) from a copy.
 */
import { randomBytes } from 'node:crypto'
import type { AppPlatform } from '../profiles'
import type { DesktopCaller, Operator, Point } from '../../desktop'

/** Longer than this is not a draft but a page the shortcut selected: not kept, never pasted back. */
const MAX_DRAFT = 10_000

/**
 * The focused draft's text ('' when empty); null when it cannot be told. `copyWaitMs`: how long the
 * app may take to place the copy — nothing on the clipboard by then means the draft was empty.
 */
export async function readDraft(desktop: Operator, caller: DesktopCaller, platform: AppPlatform, copyWaitMs = 400): Promise<string | null> {
  const marker = `deskclaw-draft-probe-${randomBytes(6).toString('hex')}`
  await desktop.writeClipboard(marker)
  await desktop.pressKeys(caller, platform.keys.selectAll)
  await desktop.pressKeys(caller, 'mod+c')
  const deadline = Date.now() + copyWaitMs
  let copied = await desktop.readClipboard()
  // The app may take a moment to place the copy.
  while (copied === marker && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 40))
    copied = await desktop.readClipboard()
  }
  if (copied === marker) return ''
  return copied.length > MAX_DRAFT ? null : copied
}

/** Puts the old draft back where the task pasted (a click there first), or empties the box when it was empty. */
export async function restoreDraft(desktop: Operator, caller: DesktopCaller, platform: AppPlatform, old: string, at: Point | null): Promise<void> {
  if (at) await desktop.click(caller, at, 'left', false)
  await desktop.pressKeys(caller, platform.keys.selectAll)
  if (old === '') await desktop.pressKeys(caller, 'backspace')
  else await desktop.pasteText(caller, old)
}
