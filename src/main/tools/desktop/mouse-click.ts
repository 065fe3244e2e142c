import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, caller, coordinate, describePoint, DESKTOP_LABELS, DESKTOP_RESULTS, MouseButtonInput, pointerPreview, wholeTool, type DesktopToolServices } from './common'
import { noSink, trusted } from '../../provenance'

export function createMouseClickTool(services: DesktopToolServices) {
  return defineTool({
    name: 'mouse_click',
    repeat: 'may-differ',
    description: 'Click at a point given in the pixels of your last screenshot: left, right or middle button, single or double.',
    shortDescription: 'Click at "x", "y" in the pixels of your last screenshot, with "button" (left, right, middle) and "double" for a double click.',
    category: 'desktop',
    access: 'execute',
    source: trusted,
    sink: noSink,
    input: z.object({
      x: coordinate('X in the last screenshot'),
      y: coordinate('Y in the last screenshot'),
      button: MouseButtonInput,
      double: z.boolean().default(false).describe('Double-click')
    }),
    grantScope: wholeTool('mouse_click'),
    summary: (args) => text((args.double ? DOUBLE_CLICK_SUMMARY : CLICK_SUMMARY)[args.button], { x: args.x, y: args.y }),
    preview: (args, ctx) =>
      pointerPreview(
        services,
        ctx.conversationId,
        args.double ? 'titleDouble' : 'title',
        [
          { label: text('point'), value: `(${args.x}, ${args.y})` },
          { label: text('button'), value: args.button, display: text(`button_${args.button}`) }
        ],
        [args]
      ),
    messages: {
      en: {
        ...DESKTOP_LABELS.en,
        ...DESKTOP_RESULTS.en,
        title: 'Click',
        titleDouble: 'Double-click',
        button_left: 'Left',
        button_right: 'Right',
        button_middle: 'Middle',
        'result.clicked.left': 'Clicked at ({x}, {y}) on the screen.',
        'result.clicked.right': 'Right-clicked at ({x}, {y}) on the screen.',
        'result.clicked.middle': 'Middle-clicked at ({x}, {y}) on the screen.',
        'result.doubleClicked.left': 'Double-clicked at ({x}, {y}) on the screen.',
        'result.doubleClicked.right': 'Double-right-clicked at ({x}, {y}) on the screen.',
        'result.doubleClicked.middle': 'Double-middle-clicked at ({x}, {y}) on the screen.',
        'summary.click.left': 'left at ({x}, {y})',
        'summary.click.right': 'right at ({x}, {y})',
        'summary.click.middle': 'middle at ({x}, {y})',
        'summary.doubleClick.left': 'double left at ({x}, {y})',
        'summary.doubleClick.right': 'double right at ({x}, {y})',
        'summary.doubleClick.middle': 'double middle at ({x}, {y})'
      },
      'zh-CN': {
        ...DESKTOP_LABELS['zh-CN'],
        ...DESKTOP_RESULTS['zh-CN'],
        title: '点击',
        titleDouble: '双击',
        button_left: '左键',
        button_right: '右键',
        button_middle: '中键',
        'result.clicked.left': '已在屏幕 ({x}, {y}) 处点击。',
        'result.clicked.right': '已在屏幕 ({x}, {y}) 处右键点击。',
        'result.clicked.middle': '已在屏幕 ({x}, {y}) 处中键点击。',
        'result.doubleClicked.left': '已在屏幕 ({x}, {y}) 处双击。',
        'result.doubleClicked.right': '已在屏幕 ({x}, {y}) 处右键双击。',
        'result.doubleClicked.middle': '已在屏幕 ({x}, {y}) 处中键双击。',
        'summary.click.left': '左键 ({x}, {y})',
        'summary.click.right': '右键 ({x}, {y})',
        'summary.click.middle': '中键 ({x}, {y})',
        'summary.doubleClick.left': '左键双击 ({x}, {y})',
        'summary.doubleClick.right': '右键双击 ({x}, {y})',
        'summary.doubleClick.middle': '中键双击 ({x}, {y})'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const screen = await services.desktop.screenPoint(ctx.conversationId, args)
        await services.desktop.click(caller(ctx), screen, args.button, args.double)
        const shown = text((args.double ? DOUBLE_CLICKED : CLICKED)[args.button], { x: screen.x, y: screen.y })
        return withDisplay(ok(`${args.double ? 'Double-clicked' : 'Clicked'} ${args.button} at ${describePoint(args, screen)}.`), shown)
      })
  })
}

/** The result line of each button, as literal keys (the key-coverage test reads them). */
const CLICKED = { left: 'result.clicked.left', right: 'result.clicked.right', middle: 'result.clicked.middle' } as const
const DOUBLE_CLICKED = { left: 'result.doubleClicked.left', right: 'result.doubleClicked.right', middle: 'result.doubleClicked.middle' } as const

/** The summary of each button, as literal keys (the key-coverage test reads them). */
const CLICK_SUMMARY = { left: 'summary.click.left', right: 'summary.click.right', middle: 'summary.click.middle' } as const
const DOUBLE_CLICK_SUMMARY = { left: 'summary.doubleClick.left', right: 'summary.doubleClick.right', middle: 'summary.doubleClick.middle' } as const
