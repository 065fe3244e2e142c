import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, DESKTOP_RESULTS, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createCursorPositionTool(services: DesktopToolServices) {
  return defineTool({
    name: 'cursor_position',
    repeat: 'may-differ',
    description: 'Where the mouse pointer is: in the pixels of your last screenshot, and on the screen.',
    shortDescription: 'Where the mouse pointer is, in the pixels of your last screenshot and on the screen.',
    category: 'desktop',
    access: 'read',
    source: trusted,
    sink: noSink,
    input: z.object({}),
    summary: () => '',
    preview: () => ({ title: text('title'), fields: [] }),
    messages: {
      en: { ...DESKTOP_RESULTS.en, title: 'Read the pointer position', 'result.pointerAt': 'The pointer is at ({x}, {y}) on the screen.' },
      'zh-CN': { ...DESKTOP_RESULTS['zh-CN'], title: '读取指针位置', 'result.pointerAt': '指针位于屏幕 ({x}, {y})。' }
    },
    run: (_args, ctx) =>
      attempt(async () => {
        const at = await services.desktop.cursor(ctx.conversationId)
        const screen = `(${at.screen.x}, ${at.screen.y}) on the screen`
        const shown = text('result.pointerAt', { x: at.screen.x, y: at.screen.y })
        if (!at.frame) return withDisplay(ok(`The pointer is at ${screen}. (No screenshot yet in this conversation: screen pixels.)`), shown)
        if (!at.inScreenshot) return withDisplay(ok(`The pointer is at ${screen}, outside your last screenshot.`), shown)
        return withDisplay(ok(`The pointer is at (${at.inScreenshot.x}, ${at.inScreenshot.y}) in your last screenshot, ${screen}.`), shown)
      })
  })
}
