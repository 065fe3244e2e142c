/**
 * Native dialogs and notifications (docs/risk.md, "Answering a question"): the app window is a
 * front door for approvals for as long as the app runs; whenever no DeskClaw window has the focus
 * a question also comes as a native dialog and a notification (the rules: native-approvals.ts),
 * and a switch to a risky setting is confirmed here, in the main process.
 */
import { BrowserWindow, dialog, Notification, type MessageBoxOptions } from 'electron'
import type { DeskclawApp, SettingConfirmer } from '../app'
import { NativeApprovals, type NativeDialogSpec } from './native-approvals'

/** The main window if it can carry a dialog (visible, not minimised); dialogs without a parent stay asynchronous too. */
function dialogParent(getMainWindow: () => BrowserWindow | null): BrowserWindow | null {
  const window = getMainWindow()
  return window && window.isVisible() && !window.isMinimized() ? window : null
}

async function showMessageBox(parent: BrowserWindow | null, options: MessageBoxOptions): Promise<number> {
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options)
  return response
}

/** Attaches the 'electron' front door, native questions and notifications; returns the detach. */
export function setupApprovalDialogs(deskclaw: DeskclawApp, getMainWindow: () => BrowserWindow | null): () => void {
  const detachFrontDoor = deskclaw.approvals.attachFrontDoor('electron')
  const openInApp = (conversationId: string): void => {
    const window = getMainWindow()
    if (window) {
      if (window.isMinimized()) window.restore()
      window.show()
      window.focus()
    }
    deskclaw.events.publish({ kind: 'show_conversation', conversationId })
  }
  const native = new NativeApprovals({
    anyWindowFocused: () => BrowserWindow.getFocusedWindow() !== null,
    showDialog: (spec: NativeDialogSpec, signal: AbortSignal) =>
      showMessageBox(dialogParent(getMainWindow), {
        type: 'warning',
        title: spec.title,
        message: spec.message,
        detail: spec.detail,
        buttons: spec.buttons,
        defaultId: spec.defaultId,
        cancelId: spec.cancelId,
        noLink: true,
        signal
      }),
    respond: (approvalId, answer, options) => deskclaw.approvals.respond(approvalId, answer, options),
    openInApp,
    notify: (notice) => {
      if (!Notification.isSupported()) return
      const notification = new Notification({ title: notice.title, body: notice.body })
      notification.on('click', () => openInApp(notice.conversationId))
      notification.show()
    },
    language: () => deskclaw.settings().language,
    messagesOf: (tool) => deskclaw.registry.get(tool)?.messages
  })
  const unsubscribe = deskclaw.events.subscribe((event) => native.handle(event))
  return () => {
    unsubscribe()
    native.dispose()
    detachFrontDoor()
  }
}

/** Confirms a switch to autonomy "full" or the "native" runtime with a native dialog (Cancel is the default). */
export function nativeSettingConfirmer(getMainWindow: () => BrowserWindow | null): SettingConfirmer {
  return async (changes, language) => {
    const zh = language === 'zh-CN'
    const response = await showMessageBox(dialogParent(getMainWindow), {
      type: 'warning',
      title: 'DeskClaw',
      message: zh ? '要关闭这项安全保护吗？' : 'Turn off this safety net?',
      detail: changes.map((change) => change.why[language]).join('\n\n'),
      buttons: zh ? ['取消', '仍然切换'] : ['Cancel', 'Switch anyway'],
      defaultId: 0,
      cancelId: 0,
      noLink: true
    })
    return response === 1
  }
}
