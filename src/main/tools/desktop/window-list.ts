import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, DESKTOP_RESULTS, type DesktopToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createWindowListTool(services: DesktopToolServices) {
  return defineTool({
    name: 'window_list',
    repeat: 'may-differ',
    description: 'List the open windows: title, application, position and size (screen pixels), and which one has the focus.',
    shortDescription: 'List the open windows with title, application, position, size and which one has the focus.',
    category: 'desktop',
    access: 'read',
    source: untrusted('chat_screen'),
    sink: noSink,
    input: z.object({}),
    summary: () => '',
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...DESKTOP_RESULTS.en, title: 'List the windows', 'result.windows': '{count} windows are open.', 'result.noWindows': 'No windows are open.' },
      'zh-CN': { ...DESKTOP_RESULTS['zh-CN'], title: '列出窗口', 'result.windows': '打开了 {count} 个窗口。', 'result.noWindows': '没有打开的窗口。' }
    },
    run: () =>
      attempt(async () => {
        const windows = await services.desktop.windows()
        if (windows.length === 0) return withDisplay(ok('No windows are open.'), text('result.noWindows'))
        const lines = windows.map(
          (w) =>
            `${w.focused ? '* ' : '  '}"${w.title}"${w.app ? ` [${w.app}]` : ''} at (${w.bounds.x}, ${w.bounds.y}) ${w.bounds.width}×${w.bounds.height}`
        )
        return withDisplay(ok(`${windows.length} window(s); * has the focus:\n${lines.join('\n')}`), text('result.windows', { count: windows.length }))
      })
  })
}
