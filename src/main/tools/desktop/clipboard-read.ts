import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { attempt, type DesktopToolServices } from './common'

export function createClipboardReadTool(services: DesktopToolServices) {
  return defineTool({
    name: 'clipboard_read',
    description: 'Read the text on the clipboard.',
    category: 'desktop',
    access: 'read',
    input: z.object({}),
    // What people copy includes passwords: reading it asks, like an input action.
    asksFirst: () => true,
    grantScope: () => 'desktop-tool:clipboard_read',
    summary: () => '',
    preview: () => {
      services.desktop.clipboardReady()
      return { title: text('title'), fields: [] }
    },
    messages: { en: { title: 'Read the clipboard' }, 'zh-CN': { title: '读取剪贴板' } },
    run: () =>
      attempt(async () => {
        const content = await services.desktop.readClipboard()
        return ok(content === '' ? '(The clipboard holds no text.)' : content)
      })
  })
}
