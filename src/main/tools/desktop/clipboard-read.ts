import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, DESKTOP_RESULTS, type DesktopToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createClipboardReadTool(services: DesktopToolServices) {
  return defineTool({
    name: 'clipboard_read',
    repeat: 'may-differ',
    description: 'Read the text on the clipboard.',
    shortDescription: 'Read the text on the clipboard.',
    category: 'desktop',
    access: 'read',
    source: untrusted('chat_screen'),
    sink: noSink,
    input: z.object({}),
    // What people copy includes passwords: reading it asks, like an input action.
    asksFirst: () => true,
    grantScope: () => 'desktop-tool:clipboard_read',
    summary: () => '',
    preview: () => {
      services.desktop.clipboardReady()
      return { title: text('title'), fields: [] }
    },
    messages: {
      en: {
        ...DESKTOP_RESULTS.en,
        title: 'Read the clipboard',
        'result.clipboardRead': 'Read {count} characters from the clipboard.',
        'result.clipboardEmpty': 'The clipboard holds no text.'
      },
      'zh-CN': {
        ...DESKTOP_RESULTS['zh-CN'],
        title: '读取剪贴板',
        'result.clipboardRead': '已从剪贴板读取 {count} 个字符。',
        'result.clipboardEmpty': '剪贴板中没有文字。'
      }
    },
    run: () =>
      attempt(async () => {
        const content = await services.desktop.readClipboard()
        if (content === '') return withDisplay(ok('(The clipboard holds no text.)'), text('result.clipboardEmpty'))
        return withDisplay(ok(content), text('result.clipboardRead', { count: [...content].length }))
      })
  })
}
