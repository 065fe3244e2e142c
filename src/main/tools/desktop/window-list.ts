import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { attempt, type DesktopToolServices } from './common'

export function createWindowListTool(services: DesktopToolServices) {
  return defineTool({
    name: 'window_list',
    description: 'List the open windows: title, application, position and size (screen pixels), and which one has the focus.',
    category: 'desktop',
    access: 'read',
    input: z.object({}),
    summary: () => '',
    preview: () => ({ title: text('title'), fields: [] }),
    messages: { en: { title: 'List the windows' }, 'zh-CN': { title: '列出窗口' } },
    run: () =>
      attempt(async () => {
        const windows = await services.desktop.windows()
        if (windows.length === 0) return ok('No windows are open.')
        const lines = windows.map(
          (w) =>
            `${w.focused ? '* ' : '  '}"${w.title}"${w.app ? ` [${w.app}]` : ''} at (${w.bounds.x}, ${w.bounds.y}) ${w.bounds.width}×${w.bounds.height}`
        )
        return ok(`${windows.length} window(s); * has the focus:\n${lines.join('\n')}`)
      })
  })
}
