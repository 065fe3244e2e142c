import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, DESKTOP_LABELS, DESKTOP_RESULTS, wholeTool, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createKeyPressTool(services: DesktopToolServices) {
  return defineTool({
    name: 'key_press',
    repeat: 'may-differ',
    description:
      'Press a key or a combination, e.g. "enter", "esc", "ctrl+shift+t", "alt+tab", "f5". "mod" means Ctrl on Linux and Windows, Cmd on macOS ("mod+s" saves). ' +
      'To enter text use type_text.',
    shortDescription: 'Press a key or combination in "keys" ("enter", "ctrl+shift+t"; "mod" is Ctrl, or Cmd on macOS); to enter text use type_text.',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({ keys: z.string().min(1).max(80).describe('The key or combination, joined with +') }),
    grantScope: wholeTool('key_press'),
    summary: (args) => args.keys,
    preview: async (args) => {
      const parsed = services.desktop.parseCombo(args.keys) // refuses an unknown key before anyone is asked
      await services.desktop.ready()
      return { title: text('title'), fields: [{ label: text('keys'), value: args.keys, code: true, arg: 'keys' }, { label: text('action'), value: parsed.join(' + ') }] }
    },
    messages: {
      en: { ...DESKTOP_LABELS.en, ...DESKTOP_RESULTS.en, title: 'Press keys', 'result.pressed': 'Pressed {keys}.' },
      'zh-CN': { ...DESKTOP_LABELS['zh-CN'], ...DESKTOP_RESULTS['zh-CN'], title: '按下按键', 'result.pressed': '已按下 {keys}。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const keys = await services.desktop.pressKeys(caller(ctx), args.keys)
        const combo = keys.join(' + ')
        return withDisplay(ok(`Pressed ${combo}.`), text('result.pressed', { keys: combo }))
      })
  })
}
