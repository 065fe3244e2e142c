import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, DESKTOP_LABELS, DESKTOP_RESULTS, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createClipboardWriteTool(services: DesktopToolServices) {
  return defineTool({
    name: 'clipboard_write',
    repeat: 'may-differ',
    description: 'Put text on the clipboard (replacing what it holds).',
    shortDescription: 'Put "text" on the clipboard, replacing what it holds.',
    category: 'desktop',
    access: 'write',
    source: trusted,
    sink: noSink,
    input: z.object({ text: z.string().max(1_000_000).describe('The text to put on the clipboard') }),
    grantScope: () => 'desktop-tool:clipboard_write',
    summary: (args) => args.text.slice(0, 60),
    preview: (args) => {
      services.desktop.clipboardReady()
      return { title: text('title'), fields: [{ label: text('text'), value: args.text, code: true, arg: 'text' }] }
    },
    messages: {
      en: { ...DESKTOP_LABELS.en, ...DESKTOP_RESULTS.en, title: 'Put text on the clipboard', 'result.clipboardWritten': 'The clipboard now holds {count} characters.' },
      'zh-CN': { ...DESKTOP_LABELS['zh-CN'], ...DESKTOP_RESULTS['zh-CN'], title: '写入剪贴板', 'result.clipboardWritten': '剪贴板现在有 {count} 个字符。' }
    },
    run: (args) =>
      attempt(async () => {
        await services.desktop.writeClipboard(args.text)
        const count = [...args.text].length
        return withDisplay(ok(`The clipboard now holds ${count} characters.`), text('result.clipboardWritten', { count }))
      })
  })
}
