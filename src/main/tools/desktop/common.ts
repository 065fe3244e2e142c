/** What the desktop tools share: their services, failures in words, point arguments and approval previews. */
import { z } from 'zod'
import { errorMessage, type ApprovalPreview, type Settings } from '../../../shared'
import { ClipboardUnavailableError, DesktopBusyError, DesktopUnavailableError, markPoint, type DesktopService, type Point } from '../../desktop'
import { fail, text, withDisplay, type ToolContext, type ToolOutput } from '../define-tool'

export interface DesktopToolServices {
  desktop: DesktopService
  settings: () => Pick<Settings, 'screenshotsAsk' | 'screenshotMaxWidth'>
}

/** Every failure of a desktop tool is a result the model reads: unavailable, busy, stopped, off screen. */
export function desktopFailure(error: unknown): ToolOutput {
  const output = fail(errorMessage(error))
  if (error instanceof DesktopUnavailableError) return withDisplay(output, text('result.unavailable'))
  if (error instanceof DesktopBusyError) return withDisplay(output, text('result.busy'))
  if (error instanceof ClipboardUnavailableError) return withDisplay(output, text('result.clipboardUnavailable'))
  return withDisplay(output, text('result.failed'))
}

/** Result lines (ToolOutput.display) every desktop tool may give: spread into each desktop tool's messages. */
export const DESKTOP_RESULTS = {
  en: {
    'result.unavailable': 'Desktop control is not available here.',
    'result.busy': 'Another task is using the keyboard and mouse; try again when it has finished.',
    'result.clipboardUnavailable': 'The clipboard is not available here.',
    'result.failed': 'The desktop action did not succeed; the output below says why.'
  },
  'zh-CN': {
    'result.unavailable': '此处无法控制桌面。',
    'result.busy': '另一个任务正在使用键盘和鼠标，请在它结束后再试。',
    'result.clipboardUnavailable': '此处无法使用剪贴板。',
    'result.failed': '桌面操作未成功，原因见下方输出。'
  }
} as const

/** Runs the tool's action; any failure becomes an error result. */
export async function attempt(action: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await action()
  } catch (error) {
    return desktopFailure(error)
  }
}

export const coordinate = (what: string) => z.number().int().min(-100_000).max(100_000).describe(what)

export const MouseButtonInput = z.enum(['left', 'right', 'middle']).default('left').describe('Mouse button (default left)')

/** "Allow for this conversation" covers every call of this input tool, not only these coordinates. */
export const wholeTool = (tool: string) => () => `desktop-tool:${tool}`

export const caller = (ctx: ToolContext) => ({ runId: ctx.runId, conversationId: ctx.conversationId, signal: ctx.signal })

/** How a point of the model's is described: in the screenshot's pixels, and the screen's when they differ. */
export function describePoint(given: Point, screen: Point): string {
  return given.x === screen.x && given.y === screen.y ? `(${given.x}, ${given.y})` : `(${given.x}, ${given.y}) of the screenshot = (${screen.x}, ${screen.y}) on the screen`
}

/** Labels every desktop tool's approval uses. */
export const DESKTOP_LABELS = {
  en: {
    action: 'Action',
    point: 'Where',
    from: 'From',
    to: 'To',
    button: 'Button',
    keys: 'Keys',
    text: 'Text',
    window: 'Window',
    note: 'Note',
    noScreenshot: 'No screenshot yet: the numbers are screen pixels.',
    marked: 'The last screenshot, with the point marked'
  },
  'zh-CN': {
    action: '操作',
    point: '位置',
    from: '起点',
    to: '终点',
    button: '按键',
    keys: '按键组合',
    text: '文字',
    window: '窗口',
    note: '说明',
    noScreenshot: '尚无截图：坐标按屏幕像素计。',
    marked: '最近一张截图，已标出位置'
  }
} as const

/**
 * The approval for a pointer action: the points as the model gave them and on the screen, and the
 * conversation's last screenshot with them marked (docs/desktop.md, "What asks"). A point off the
 * screenshot or the screen refuses the call before anyone is asked.
 */
export async function pointerPreview(
  services: DesktopToolServices,
  conversationId: string | undefined,
  title: string,
  fields: ApprovalPreview['fields'],
  points: Point[]
): Promise<ApprovalPreview> {
  const frame = conversationId ? services.desktop.lastFrame(conversationId) : undefined
  await services.desktop.ready()
  if (conversationId) for (const point of points) await services.desktop.screenPoint(conversationId, point)
  const preview: ApprovalPreview = { title: text(title), fields }
  if (!frame) return { ...preview, fields: [...fields, { label: text('note'), value: '', display: text('noScreenshot') }] }
  try {
    const marked = await markPoint(frame.png, points)
    return { ...preview, image: { mediaType: marked.mediaType, data: marked.data, alt: text('marked') } }
  } catch (error) {
    // The question is still asked, with the coordinates, when the picture cannot be drawn.
    console.warn(`[deskclaw] could not mark the screenshot for an approval: ${errorMessage(error)}`)
    return preview
  }
}
