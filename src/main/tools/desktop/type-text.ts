import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, DESKTOP_LABELS, DESKTOP_RESULTS, wholeTool, type DesktopToolServices } from './common'
import { sendsTo, trusted } from '../../provenance'

export function createTypeTextTool(services: DesktopToolServices) {
  return defineTool({
    name: 'type_text',
    repeat: 'may-differ',
    description:
      'Enter text into the focused field. Any language and emoji work: text is pasted through the clipboard (restored afterwards) unless it is plain letters, digits and spaces. ' +
      'method "keys" types printable ASCII key by key (for fields that refuse paste, such as terminals). Newlines are entered as text, not as Enter; use key_press to submit.',
    shortDescription: 'Enter "text" into the focused field (pasted, so any language works; "method" keys types ASCII key by key); newlines are not Enter.',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: sendsTo('typing', () => null),
    input: z.object({
      text: z.string().min(1).max(100_000),
      method: z.enum(['auto', 'paste', 'keys']).default('auto').describe('auto (default), paste, or keys')
    }),
    grantScope: wholeTool('type_text'),
    summary: (args) => args.text.slice(0, 60),
    preview: async (args) => {
      await services.desktop.ready() // nobody is asked to approve typing into a desktop that is not there
      return { title: text('title'), fields: [{ label: text('text'), value: args.text, code: true, arg: 'text' }] }
    },
    messages: {
      en: {
        ...DESKTOP_LABELS.en,
        ...DESKTOP_RESULTS.en,
        title: 'Type text',
        'result.typed': 'Typed {count} characters key by key.',
        'result.pasted': 'Pasted {count} characters; the clipboard holds what it held before.'
      },
      'zh-CN': {
        ...DESKTOP_LABELS['zh-CN'],
        ...DESKTOP_RESULTS['zh-CN'],
        title: '输入文字',
        'result.typed': '已逐键输入 {count} 个字符。',
        'result.pasted': '已粘贴 {count} 个字符；剪贴板已恢复原来的内容。'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const result = await services.desktop.typeText(caller(ctx), args.text, args.method)
        const count = [...args.text].length
        if (result.method === 'keys') return withDisplay(ok(`Typed ${count} characters key by key.`), text('result.typed', { count }))
        return withDisplay(
          ok(`Pasted ${count} characters; the clipboard holds what it held before (${result.clipboardRestored}).`),
          text('result.pasted', { count })
        )
      })
  })
}
