import { z } from 'zod'
import { defineTool, ok, text } from '../define-tool'
import { attempt, caller, coordinate, describePoint, DESKTOP_LABELS, MouseButtonInput, pointerPreview, wholeTool, type DesktopToolServices } from './common'

export function createMouseClickTool(services: DesktopToolServices) {
  return defineTool({
    name: 'mouse_click',
    description: 'Click at a point given in the pixels of your last screenshot: left, right or middle button, single or double.',
    category: 'desktop',
    access: 'execute',
    input: z.object({
      x: coordinate('X in the last screenshot'),
      y: coordinate('Y in the last screenshot'),
      button: MouseButtonInput,
      double: z.boolean().default(false).describe('Double-click')
    }),
    grantScope: wholeTool('mouse_click'),
    summary: (args) => `${args.double ? 'double ' : ''}${args.button} at (${args.x}, ${args.y})`,
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
      en: { ...DESKTOP_LABELS.en, title: 'Click', titleDouble: 'Double-click', button_left: 'Left', button_right: 'Right', button_middle: 'Middle' },
      'zh-CN': { ...DESKTOP_LABELS['zh-CN'], title: '点击', titleDouble: '双击', button_left: '左键', button_right: '右键', button_middle: '中键' }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const screen = await services.desktop.screenPoint(ctx.conversationId, args)
        await services.desktop.click(caller(ctx), screen, args.button, args.double)
        return ok(`${args.double ? 'Double-clicked' : 'Clicked'} ${args.button} at ${describePoint(args, screen)}.`)
      })
  })
}
