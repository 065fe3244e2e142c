import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { attempt, coordinate, DESKTOP_RESULTS, type DesktopToolServices } from './common'
import { noSink, untrusted } from '../../provenance'

export function createScreenshotTool(services: DesktopToolServices) {
  return defineTool({
    name: 'screenshot',
    repeat: 'may-differ',
    description:
      'Take a screenshot of the whole screen, one window (by title) or a region, and see it as an image. ' +
      'The mouse tools take coordinates in the pixels of the last screenshot you saw, so take one before clicking.',
    shortDescription: 'Take a screenshot of the screen, a "window" (by title) or a "region" as an image; mouse tools take coordinates in its pixels.',
    category: 'desktop',
    access: 'read',
    source: untrusted('chat_screen'),
    sink: noSink,
    input: z.object({
      window: z.string().min(1).max(200).optional().describe('Title (or part of it) of one window to capture'),
      region: z
        .object({ x: coordinate('Left edge, screen pixels'), y: coordinate('Top edge, screen pixels'), width: z.number().int().min(1), height: z.number().int().min(1) })
        .optional()
        .describe('A part of the screen, in screen pixels'),
      max_width: z.number().int().min(320).max(7680).optional().describe('Scale the image down to at most this many pixels wide')
    }),
    asksFirst: () => services.settings().screenshotsAsk,
    // Words in the UI's language (issue 22, item 5): the window's title and the region's numbers are params.
    summary: (args) =>
      args.window
        ? text('summary.window', { window: args.window })
        : args.region
          ? text('summary.region', { width: args.region.width, height: args.region.height, x: args.region.x, y: args.region.y })
          : text('summary.screen'),
    preview: (args) => ({
      title: text('title'),
      fields: [
        {
          label: text('what'),
          value: args.window ?? (args.region ? `${args.region.width}×${args.region.height}+${args.region.x}+${args.region.y}` : ''),
          display: args.window || args.region ? undefined : text('wholeScreen')
        }
      ]
    }),
    messages: {
      en: {
        ...DESKTOP_RESULTS.en,
        title: 'Take a screenshot',
        what: 'Of',
        wholeScreen: 'The whole screen',
        'summary.screen': 'the whole screen',
        'summary.window': 'window "{window}"',
        'summary.region': 'region {width}×{height}+{x}+{y}',
        'result.screenshot': 'Took a screenshot of the screen ({width}×{height} pixels).',
        'result.screenshotRegion': 'Took a screenshot of a region of the screen ({width}×{height} pixels).',
        'result.screenshotWindow': 'Took a screenshot of the window "{window}" ({width}×{height} pixels).'
      },
      'zh-CN': {
        ...DESKTOP_RESULTS['zh-CN'],
        title: '截图',
        what: '范围',
        wholeScreen: '整个屏幕',
        'summary.screen': '整个屏幕',
        'summary.window': '窗口“{window}”',
        'summary.region': '区域 {width}×{height}+{x}+{y}',
        'result.screenshot': '已截取屏幕（{width}×{height} 像素）。',
        'result.screenshotRegion': '已截取屏幕的一个区域（{width}×{height} 像素）。',
        'result.screenshotWindow': '已截取窗口“{window}”（{width}×{height} 像素）。'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const target = args.window ? ({ kind: 'window', title: args.window } as const) : args.region ? ({ kind: 'region', rect: args.region } as const) : ({ kind: 'screen' } as const)
        const shot = await services.desktop.screenshot(ctx.conversationId, target, args.max_width ?? services.settings().screenshotMaxWidth)
        const of = shot.window ? `the window "${shot.window.title}"` : target.kind === 'region' ? 'a region of the screen' : 'the screen'
        const scale = Math.round(shot.scale * 1000) / 1000
        const lines = [
          `Screenshot of ${of}: ${shot.width}×${shot.height} pixels.`,
          `It shows the screen area (${shot.area.x}, ${shot.area.y}) to (${shot.area.x + shot.area.width}, ${shot.area.y + shot.area.height}) of a ${shot.screen.width}×${shot.screen.height} screen; scale ${scale} screen pixels per image pixel.`,
          'Give the mouse tools coordinates in the pixels of this image.'
        ]
        const size = { width: shot.width, height: shot.height }
        const shown = shot.window
          ? text('result.screenshotWindow', { ...size, window: shot.window.title })
          : text(target.kind === 'region' ? 'result.screenshotRegion' : 'result.screenshot', size)
        return {
          ...withDisplay(ok(lines.join('\n')), shown),
          attachments: [{ kind: 'image', mediaType: 'image/png', data: shot.png, name: 'screenshot.png', width: shot.width, height: shot.height }]
        }
      })
  })
}
