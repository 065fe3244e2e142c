import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { attempt, type DesktopToolServices } from './common'

export function createCursorPositionTool(services: DesktopToolServices) {
  return defineTool({
    name: 'cursor_position',
    description: 'Where the mouse pointer is: in the pixels of your last screenshot, and on the screen.',
    category: 'desktop',
    access: 'read',
    input: z.object({}),
    summary: () => '',
    preview: () => ({ title: text('title'), fields: [] }),
    messages: { en: { title: 'Read the pointer position' }, 'zh-CN': { title: '读取指针位置' } },
    run: (_args, ctx) =>
      attempt(async () => {
        const at = await services.desktop.cursor(ctx.conversationId)
        const screen = `(${at.screen.x}, ${at.screen.y}) on the screen`
        if (!at.frame) return ok(`The pointer is at ${screen}. (No screenshot yet in this conversation: screen pixels.)`)
        if (!at.inScreenshot) return ok(`The pointer is at ${screen}, outside your last screenshot.`)
        return ok(`The pointer is at (${at.inScreenshot.x}, ${at.inScreenshot.y}) in your last screenshot, ${screen}.`)
      })
  })
}
