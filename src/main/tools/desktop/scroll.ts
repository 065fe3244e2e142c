import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, coordinate, describePoint, DESKTOP_LABELS, DESKTOP_RESULTS, pointerPreview, wholeTool, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createScrollTool(services: DesktopToolServices) {
  return defineTool({
    name: 'scroll',
    repeat: 'may-differ',
    description: 'Scroll with the mouse wheel, by notches, optionally at a point of your last screenshot (else where the pointer is).',
    shortDescription: 'Scroll the mouse wheel in "direction" by "amount" notches, at "x", "y" of your last screenshot or where the pointer is.',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({
      direction: z.enum(['up', 'down', 'left', 'right']),
      amount: z.number().int().min(1).max(50).default(3).describe('Wheel notches (default 3)'),
      x: coordinate('X in the last screenshot').optional(),
      y: coordinate('Y in the last screenshot').optional()
    }),
    grantScope: wholeTool('scroll'),
    summary: (args) =>
      args.x !== undefined && args.y !== undefined
        ? text(SCROLL_AT_SUMMARY[args.direction], { amount: args.amount, x: args.x, y: args.y })
        : text(SCROLL_SUMMARY[args.direction], { amount: args.amount }),
    preview: async (args, ctx) => {
      await services.desktop.ready()
      const fields = [{ label: text('action'), value: `${args.direction} ×${args.amount}`, display: text(`scroll_${args.direction}`, { amount: args.amount }) }]
      if (args.x === undefined || args.y === undefined) return { title: text('title'), fields }
      return pointerPreview(services, ctx.conversationId, 'title', [...fields, { label: text('point'), value: `(${args.x}, ${args.y})` }], [{ x: args.x, y: args.y }])
    },
    messages: {
      en: {
        ...DESKTOP_LABELS.en,
        ...DESKTOP_RESULTS.en,
        title: 'Scroll',
        scroll_up: 'Up, {amount} notches',
        scroll_down: 'Down, {amount} notches',
        scroll_left: 'Left, {amount} notches',
        scroll_right: 'Right, {amount} notches',
        'result.scrolled.up': 'Scrolled up {amount} notches.',
        'result.scrolled.down': 'Scrolled down {amount} notches.',
        'result.scrolled.left': 'Scrolled left {amount} notches.',
        'result.scrolled.right': 'Scrolled right {amount} notches.',
        'result.pointIncomplete': 'Give both x and y, or neither.',
        'summary.up': 'up ×{amount}',
        'summary.down': 'down ×{amount}',
        'summary.left': 'left ×{amount}',
        'summary.right': 'right ×{amount}',
        'summary.upAt': 'up ×{amount} at ({x}, {y})',
        'summary.downAt': 'down ×{amount} at ({x}, {y})',
        'summary.leftAt': 'left ×{amount} at ({x}, {y})',
        'summary.rightAt': 'right ×{amount} at ({x}, {y})'
      },
      'zh-CN': {
        ...DESKTOP_LABELS['zh-CN'],
        ...DESKTOP_RESULTS['zh-CN'],
        title: '滚动',
        scroll_up: '向上 {amount} 格',
        scroll_down: '向下 {amount} 格',
        scroll_left: '向左 {amount} 格',
        scroll_right: '向右 {amount} 格',
        'result.scrolled.up': '已向上滚动 {amount} 格。',
        'result.scrolled.down': '已向下滚动 {amount} 格。',
        'result.scrolled.left': '已向左滚动 {amount} 格。',
        'result.scrolled.right': '已向右滚动 {amount} 格。',
        'result.pointIncomplete': '请同时给出 x 和 y，或者都不给。',
        'summary.up': '向上 ×{amount}',
        'summary.down': '向下 ×{amount}',
        'summary.left': '向左 ×{amount}',
        'summary.right': '向右 ×{amount}',
        'summary.upAt': '在 ({x}, {y}) 向上 ×{amount}',
        'summary.downAt': '在 ({x}, {y}) 向下 ×{amount}',
        'summary.leftAt': '在 ({x}, {y}) 向左 ×{amount}',
        'summary.rightAt': '在 ({x}, {y}) 向右 ×{amount}'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        if ((args.x === undefined) !== (args.y === undefined)) return withDisplay({ forLlm: 'Give both x and y, or neither.', isError: true }, text('result.pointIncomplete'))
        const given = args.x !== undefined && args.y !== undefined ? { x: args.x, y: args.y } : undefined
        const at = given ? await services.desktop.screenPoint(ctx.conversationId, given) : undefined
        await services.desktop.scroll(caller(ctx), args.direction, args.amount, at)
        const said = `Scrolled ${args.direction} ${args.amount} notch(es)${given && at ? ` at ${describePoint(given, at)}` : ''}.`
        return withDisplay(ok(said), text(SCROLLED[args.direction], { amount: args.amount }))
      })
  })
}

/** The result line of each direction, as literal keys (the key-coverage test reads them). */
const SCROLLED = { up: 'result.scrolled.up', down: 'result.scrolled.down', left: 'result.scrolled.left', right: 'result.scrolled.right' } as const

/** The summary of each direction, as literal keys (the key-coverage test reads them). */
const SCROLL_SUMMARY = { up: 'summary.up', down: 'summary.down', left: 'summary.left', right: 'summary.right' } as const
const SCROLL_AT_SUMMARY = { up: 'summary.upAt', down: 'summary.downAt', left: 'summary.leftAt', right: 'summary.rightAt' } as const
