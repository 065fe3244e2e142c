/** How a sent message shows it came from DeskClaw (docs/desktop.md, "Sending messages"). */
import type { ChatWatermark } from '../../../shared'

export const DEFAULT_WATERMARK_SUFFIX = ' [DeskClaw]'

/**
 * An invisible marker (zero-width space, zero-width non-joiner, zero-width space, word joiner): it
 * survives copy and paste in every chat app we know, shows nothing, and reads as "sent by a tool"
 * to anyone who looks for it.
 */
export const ZERO_WIDTH_MARK = '\u200b\u200c\u200b\u2060'

/** The text as it will be sent. */
export function applyWatermark(text: string, watermark: ChatWatermark, suffix: string = DEFAULT_WATERMARK_SUFFIX): string {
  switch (watermark) {
    case 'suffix':
      return suffix.trim() === '' ? text : `${text}${suffix}`
    case 'zero-width':
      return `${text}${ZERO_WIDTH_MARK}`
    case 'none':
      return text
  }
}
