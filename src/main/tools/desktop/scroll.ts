import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { attempt, caller, coordinate, describePoint, DESKTOP_LABELS, pointerPreview, wholeTool, type DesktopToolServices } from './common'

export function createScrollTool(services: DesktopToolServices) {
  return defineTool({
    name: 'scroll',
    description: 'Scroll with the mouse wheel, by notches, optionally at a point of your last screenshot (else where the pointer is).',
    category: 'desktop',
    access: 'execute',
    input: z.object({
      direction: z.enum(['up', 'down', 'left', 'right']),
      amount: z.number().int().min(1).max(50).default(3).describe('Wheel notches (default 3)'),
      x: coordinate('X in the last screenshot').optional(),
      y: coordinate('Y in the last screenshot').optional()
    }),
    grantScope: wholeTool('scroll'),
    summary: (args) => `${args.direction} ×${args.amount}${args.x !== undefined && args.y !== undefined ? ` at (${args.x}, ${args.y})` : ''}`,
    preview: async (args, ctx) => {
      await services.desktop.ready()
      const fields = [{ label: text('action'), value: `${args.direction} ×${args.amount}`, display: text(`scroll_${args.direction}`, { amount: args.amount }) }]
      if (args.x === undefined || args.y === undefined) return { title: text('title'), fields }
      return pointerPreview(services, ctx.conversationId, 'title', [...fields, { label: text('point'), value: `(${args.x}, ${args.y})` }], [{ x: args.x, y: args.y }])
    },
    messages: {
      en: {
        ...DESKTOP_LABELS.en,
        title: 'Scroll',
        scroll_up: 'Up, {amount} notches',
        scroll_down: 'Down, {amount} notches',
        scroll_left: 'Left, {amount} notches',
        scroll_right: 'Right, {amount} notches'
      },
      'zh-CN': {
        ...DESKTOP_LABELS['zh-CN'],
        title: '滚动',
        scroll_up: '向上 {amount} 格',
        scroll_down: '向下 {amount} 格',
        scroll_left: '向左 {amount} 格',
        scroll_right: '向右 {amount} 格'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        if ((args.x === undefined) !== (args.y === undefined)) return { forLlm: 'Give both x and y, or neither.', isError: true }
        const given = args.x !== undefined && args.y !== undefined ? { x: args.x, y: args.y } : undefined
        const at = given ? await services.desktop.screenPoint(ctx.conversationId, given) : undefined
        await services.desktop.scroll(caller(ctx), args.direction, args.amount, at)
        return ok(`Scrolled ${args.direction} ${args.amount} notch(es)${given && at ? ` at ${describePoint(given, at)}` : ''}.`)
      })
  })
}
