import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, coordinate, describePoint, DESKTOP_LABELS, DESKTOP_RESULTS, pointerPreview, wholeTool, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createMouseMoveTool(services: DesktopToolServices) {
  return defineTool({
    name: 'mouse_move',
    repeat: 'may-differ',
    description: 'Move the mouse pointer to a point, in the pixels of your last screenshot (hover).',
    shortDescription: 'Move the mouse pointer to "x", "y" in the pixels of your last screenshot (hover).',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({ x: coordinate('X in the last screenshot'), y: coordinate('Y in the last screenshot') }),
    grantScope: wholeTool('mouse_move'),
    summary: (args) => `(${args.x}, ${args.y})`,
    preview: (args, ctx) => pointerPreview(services, ctx.conversationId, 'title', [{ label: text('point'), value: `(${args.x}, ${args.y})` }], [args]),
    messages: {
      en: { ...DESKTOP_LABELS.en, ...DESKTOP_RESULTS.en, title: 'Move the mouse pointer', 'result.moved': 'Moved the pointer to ({x}, {y}) on the screen.' },
      'zh-CN': { ...DESKTOP_LABELS['zh-CN'], ...DESKTOP_RESULTS['zh-CN'], title: '移动鼠标指针', 'result.moved': '已将指针移到屏幕 ({x}, {y})。' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const screen = await services.desktop.screenPoint(ctx.conversationId, args)
        await services.desktop.move(caller(ctx), screen)
        return withDisplay(ok(`Moved the pointer to ${describePoint(args, screen)}.`), text('result.moved', { x: screen.x, y: screen.y }))
      })
  })
}
