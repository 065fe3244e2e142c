import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { attempt, caller, DESKTOP_LABELS, wholeTool, type DesktopToolServices } from './common'

export function createTypeTextTool(services: DesktopToolServices) {
  return defineTool({
    name: 'type_text',
    description:
      'Enter text into the focused field. Any language and emoji work: text is pasted through the clipboard (restored afterwards) unless it is plain letters, digits and spaces. ' +
      'method "keys" types printable ASCII key by key (for fields that refuse paste, such as terminals). Newlines are entered as text, not as Enter; use key_press to submit.',
    category: 'desktop',
    access: 'execute',
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
      en: { ...DESKTOP_LABELS.en, title: 'Type text' },
      'zh-CN': { ...DESKTOP_LABELS['zh-CN'], title: '输入文字' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const result = await services.desktop.typeText(caller(ctx), args.text, args.method)
        const count = [...args.text].length
        if (result.method === 'keys') return ok(`Typed ${count} characters key by key.`)
        return ok(`Pasted ${count} characters; the clipboard holds what it held before (${result.clipboardRestored}).`)
      })
  })
}
