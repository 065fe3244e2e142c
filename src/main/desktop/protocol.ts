/**
 * What the app and the desktop driver process say to each other (docs/desktop.md, "The driver"):
 * every request carries an id and a deadline, every answer names the request, and both sides
 * parse what they receive with these schemas — a message that does not parse is an error, never
 * an action.
 */
import { z } from 'zod'

export const PointSchema = z.object({ x: z.number().int(), y: z.number().int() })
export type Point = z.infer<typeof PointSchema>

export const RectSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1)
})
export type Rect = z.infer<typeof RectSchema>

export const MouseButtonSchema = z.enum(['left', 'right', 'middle'])
export type MouseButton = z.infer<typeof MouseButtonSchema>

export const ScrollDirectionSchema = z.enum(['up', 'down', 'left', 'right'])
export type ScrollDirection = z.infer<typeof ScrollDirectionSchema>

/** Key names the driver knows (nut-js `Key` members); combinations are parsed in the app (keys.ts). */
export const KeyNameSchema = z.string().regex(/^[A-Za-z0-9]{1,20}$/)

export const DriverOperationSchema = z.discriminatedUnion('op', [
  /** First message after start: proves the display opens and says what it is. */
  z.object({ op: z.literal('hello') }),
  /** Grab the screen or a part, encode as PNG scaled down to at most `maxWidth` pixels wide. */
  z.object({ op: z.literal('capture'), region: RectSchema.optional(), maxWidth: z.number().int().min(64).max(10_000) }),
  z.object({ op: z.literal('cursor') }),
  z.object({ op: z.literal('move'), to: PointSchema }),
  z.object({ op: z.literal('click'), at: PointSchema, button: MouseButtonSchema, double: z.boolean() }),
  /** Press at `from`, move in steps over `durationMs`, release at `to`; aborting releases the button at once. */
  z.object({ op: z.literal('drag'), from: PointSchema, to: PointSchema, button: MouseButtonSchema, durationMs: z.number().int().min(0).max(60_000) }),
  z.object({ op: z.literal('scroll'), at: PointSchema.optional(), direction: ScrollDirectionSchema, amount: z.number().int().min(1).max(100) }),
  /** Press the keys in order, release them in reverse. */
  z.object({ op: z.literal('keys'), keys: z.array(KeyNameSchema).min(1).max(8) }),
  /** Type key strokes one after another (each a combination, e.g. ['LeftShift', 'A']), checking for abort between them. */
  z.object({ op: z.literal('type'), strokes: z.array(z.array(KeyNameSchema).min(1).max(3)).max(10_000), delayMs: z.number().int().min(0).max(1000) }),
  z.object({ op: z.literal('windows') }),
  z.object({ op: z.literal('focus_window'), id: z.string().min(1).max(40) }),
  /**
   * Release every key and mouse button this driver pressed; with `everything`, also every button and
   * modifier it did not press (after a driver died holding them, docs/desktop.md "Stopping").
   */
  z.object({ op: z.literal('release_all'), everything: z.boolean().optional() }),
  /** Stop the request `target` (a long drag, typing): it answers `aborted` after releasing what it held. */
  z.object({ op: z.literal('abort'), target: z.number().int() }),
  /** While on, a pointer thrown into the top-left corner stops every input operation and is reported. */
  z.object({ op: z.literal('fail_safe'), enabled: z.boolean() })
])
export type DriverOperation = z.infer<typeof DriverOperationSchema>
export type DriverOp = DriverOperation['op']

export const DriverRequestSchema = z.object({
  id: z.number().int(),
  /** Epoch milliseconds after which the answer is useless (the app has given up on it). */
  deadline: z.number(),
  operation: DriverOperationSchema
})
export type DriverRequest = z.infer<typeof DriverRequestSchema>

export const WindowInfoSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The application: X11 WM_CLASS class, the process name elsewhere. */
  app: z.string(),
  bounds: z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() }),
  focused: z.boolean()
})
export type WindowInfo = z.infer<typeof WindowInfoSchema>

export const ScreenInfoSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  /** Captured pixels per screen (input) pixel: 2 on a Retina display. */
  pixelDensity: z.number()
})
export type ScreenInfo = z.infer<typeof ScreenInfoSchema>

export const HelloResultSchema = z.object({
  platform: z.string(),
  displayServer: z.string(),
  screen: ScreenInfoSchema,
  /** Whether windows can be listed and focused here, and why not. */
  windows: z.object({ available: z.boolean(), why: z.string().optional() }),
  /** macOS: the privacy permissions input and capture need ("authorized", "denied", "not determined", …). */
  permissions: z.object({ accessibility: z.string(), screenRecording: z.string() }).optional()
})
export type HelloResult = z.infer<typeof HelloResultSchema>

export const CaptureResultSchema = z.object({
  png: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'PNG bytes'),
  /** The captured area in screen (input) pixels. */
  area: RectSchema,
  /** The PNG's size. */
  width: z.number().int(),
  height: z.number().int(),
  screen: ScreenInfoSchema
})
export type CaptureResult = z.infer<typeof CaptureResultSchema>

/** What each operation answers with. */
export const DriverResultSchemas = {
  hello: HelloResultSchema,
  capture: CaptureResultSchema,
  cursor: PointSchema,
  move: PointSchema,
  click: PointSchema,
  drag: PointSchema,
  scroll: z.object({}),
  keys: z.object({}),
  type: z.object({ typed: z.number().int() }),
  windows: z.array(WindowInfoSchema),
  focus_window: z.object({ focused: z.boolean(), title: z.string() }),
  release_all: z.object({}),
  abort: z.object({}),
  fail_safe: z.object({})
} satisfies Record<DriverOp, z.ZodType>
export type DriverResult<O extends DriverOp> = z.output<(typeof DriverResultSchemas)[O]>

export const DriverErrorCodes = ['aborted', 'fail_safe', 'invalid', 'not_found', 'unsupported', 'failed'] as const
export const DriverErrorSchema = z.object({ code: z.enum(DriverErrorCodes), message: z.string() })
export type DriverError = z.infer<typeof DriverErrorSchema>

export const DriverMessageSchema = z.union([
  z.object({ id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: DriverErrorSchema }),
  /** Unasked: the user threw the pointer into the fail-safe corner. */
  z.object({ event: z.literal('fail_safe'), at: PointSchema }),
  /** Unasked, once at start before any request: the driver could not start (no display, a module failed to load). */
  z.object({ event: z.literal('unavailable'), why: z.string() })
])
export type DriverMessage = z.infer<typeof DriverMessageSchema>
