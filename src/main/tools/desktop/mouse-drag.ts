import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, coordinate, describePoint, DESKTOP_LABELS, DESKTOP_RESULTS, MouseButtonInput, pointerPreview, wholeTool, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createMouseDragTool(services: DesktopToolServices) {
  return defineTool({
    name: 'mouse_drag',
    repeat: 'may-differ',
    description: 'Press a mouse button at one point, move to another and release (drag), both in the pixels of your last screenshot.',
    shortDescription: 'Drag with "button" from "from_x", "from_y" to "to_x", "to_y", in the pixels of your last screenshot.',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({
      from_x: coordinate('Start X in the last screenshot'),
      from_y: coordinate('Start Y in the last screenshot'),
      to_x: coordinate('End X in the last screenshot'),
      to_y: coordinate('End Y in the last screenshot'),
      button: MouseButtonInput,
      duration_ms: z.number().int().min(0).max(30_000).default(300).describe('How long the move takes (default 300 ms)')
    }),
    grantScope: wholeTool('mouse_drag'),
    summary: (args) => `(${args.from_x}, ${args.from_y}) → (${args.to_x}, ${args.to_y})`,
    preview: (args, ctx) =>
      pointerPreview(
        services,
        ctx.conversationId,
        'title',
        [
          { label: text('from'), value: `(${args.from_x}, ${args.from_y})` },
          { label: text('to'), value: `(${args.to_x}, ${args.to_y})` },
          { label: text('button'), value: args.button }
        ],
        [
          { x: args.from_x, y: args.from_y },
          { x: args.to_x, y: args.to_y }
        ]
      ),
    messages: {
      en: {
        ...DESKTOP_LABELS.en,
        ...DESKTOP_RESULTS.en,
        title: 'Drag with the mouse',
        'result.dragged': 'Dragged from ({fromX}, {fromY}) to ({toX}, {toY}) on the screen.'
      },
      'zh-CN': {
        ...DESKTOP_LABELS['zh-CN'],
        ...DESKTOP_RESULTS['zh-CN'],
        title: '用鼠标拖动',
        'result.dragged': '已在屏幕上从 ({fromX}, {fromY}) 拖动到 ({toX}, {toY})。'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const from = { x: args.from_x, y: args.from_y }
        const to = { x: args.to_x, y: args.to_y }
        const screenFrom = await services.desktop.screenPoint(ctx.conversationId, from)
        const screenTo = await services.desktop.screenPoint(ctx.conversationId, to)
        await services.desktop.drag(caller(ctx), screenFrom, screenTo, args.button, args.duration_ms)
        const shown = text('result.dragged', { fromX: screenFrom.x, fromY: screenFrom.y, toX: screenTo.x, toY: screenTo.y })
        return withDisplay(ok(`Dragged ${args.button} from ${describePoint(from, screenFrom)} to ${describePoint(to, screenTo)}.`), shown)
      })
  })
}
