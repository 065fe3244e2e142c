/**
 * The native question before a link leaves the Electron app (window.open from the renderer lands in
 * setWindowOpenHandler, which always denies and then asks this). The full URL is shown; Cancel is
 * the default, so a stray Enter opens nothing.
 */
import type { MessageBoxOptions } from 'electron'
import type { ExternalLinkDecision } from '../../../shared/external-links'

export type LinkDialogLanguage = 'en' | 'zh-CN'

const TEXT = {
  en: {
    message: 'Open this link in your browser?',
    site: 'Site',
    address: 'Address',
    open: 'Open',
    cancel: 'Cancel'
  },
  'zh-CN': {
    message: '在浏览器中打开这个链接？',
    site: '网站',
    address: '完整地址',
    open: '打开',
    cancel: '取消'
  }
} as const

/** The message box for an allowed link; the response index 0 means Open. */
export function linkDialogOptions(decision: Extract<ExternalLinkDecision, { allowed: true }>, language: LinkDialogLanguage): MessageBoxOptions {
  const text = TEXT[language] ?? TEXT.en
  return {
    type: 'question',
    title: 'DeskClaw',
    message: text.message,
    detail: `${text.site}: ${decision.site}\n\n${text.address}:\n${decision.display}`,
    buttons: [text.open, text.cancel],
    defaultId: 1,
    cancelId: 1,
    noLink: true
  }
}

/** Whether the answer to linkDialogOptions means "open". */
export const LINK_DIALOG_OPEN = 0
