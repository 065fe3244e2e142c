import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, DESKTOP_LABELS, DESKTOP_RESULTS, wholeTool, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createWindowFocusTool(services: DesktopToolServices) {
  return defineTool({
    name: 'window_focus',
    repeat: 'may-differ',
    description:
      'Bring a window to the front and give it the keyboard focus, by its title (exact, or a part that matches exactly one window). ' +
      'Several matches are an error that lists them.',
    shortDescription: 'Bring the window whose "title" matches (exactly, or a part matching one window) to the front with the keyboard focus.',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({ title: z.string().min(1).max(200) }),
    grantScope: wholeTool('window_focus'),
    summary: (args) => args.title,
    preview: async (args) => {
      await services.desktop.ready()
      return { title: text('title'), fields: [{ label: text('window'), value: args.title, arg: 'title' }] }
    },
    messages: {
      en: { ...DESKTOP_LABELS.en, ...DESKTOP_RESULTS.en, title: 'Switch to a window', 'result.focused': '"{window}" is now in front with the focus.' },
      'zh-CN': { ...DESKTOP_LABELS['zh-CN'], ...DESKTOP_RESULTS['zh-CN'], title: '切换到窗口', 'result.focused': '“{window}”已切换到前台并获得焦点。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const window = await services.desktop.focusWindow(caller(ctx), args.title)
        const said = `"${window.title}"${window.app ? ` [${window.app}]` : ''} is now in front with the focus.`
        return withDisplay(ok(said), text('result.focused', { window: window.title }))
      })
  })
}
