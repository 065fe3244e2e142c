/**
 * Devices over the bridge (docs/devices.md): the merged USB / HID / serial view, each backend's
 * state with the fix when it is missing, live changes, and the serial console of the Devices panel.
 */
import { z } from 'zod'
import { defineCall } from './define-call'

export const DeviceKindSchema = z.enum(['usb', 'hid', 'serial'])
export type DeviceKind = z.infer<typeof DeviceKindSchema>

/** One physical device, merged from every backend that sees it. */
export const DeviceSchema = z.object({
  /** Stable while plugged: vid:pid:serial, else the port path, else the backend's location. */
  id: z.string(),
  kinds: z.array(DeviceKindSchema),
  /** What to call it: the board ("Espressif ESP32-S3"), else vendor + product, else "Unknown device (vvvv:pppp)". */
  name: z.string(),
  vendorName: z.string().optional(),
  productName: z.string().optional(),
  /** Four lower-case hex digits. */
  vendorId: z.string().optional(),
  productId: z.string().optional(),
  serialNumber: z.string().optional(),
  /** Serial port paths (/dev/ttyACM0, COM7, a pty the user added). */
  ports: z.array(z.string()),
  /** HID paths, for reference. */
  hidPaths: z.array(z.string()).optional(),
  /** How it is attached: usb, a native (on-board) port, a virtual port (pty, socat link), bluetooth. */
  connection: z.enum(['usb', 'native', 'virtual', 'bluetooth', 'unknown']),
  /** What the board table says it is ("ESP32-S3 (native USB)", "CH340 USB-serial adapter — board unknown"). */
  board: z.string().optional(),
  /**
   * `name` and `board` as message codes (devices.name.*, devices.board.*) where they are more than
   * product names — a port, an unknown device, an adapter's "board unknown" — so the UI says them in
   * its language (issue 22, item 5); the names inside (usb.ids, the device's strings) are params.
   */
  nameText: z.object({ key: z.string(), params: z.record(z.string(), z.string()).optional() }).optional(),
  boardText: z.object({ key: z.string(), params: z.record(z.string(), z.string()).optional() }).optional()
})
export type Device = z.infer<typeof DeviceSchema>

export const BackendStatusSchema = z.object({
  backend: DeviceKindSchema,
  available: z.boolean(),
  /** Why not, when it is not (a missing library, no permission, no /sys/bus/usb). */
  why: z.string().optional(),
  /** What to do about it (the udev rule to add, the package to install). */
  fix: z.string().optional(),
  /**
   * The same as message codes the UI translates (docs/architecture.md, "Texts from main"): why, the
   * fix as a sentence, and the command it means, shown apart in the copyable box (issue 22, item 5).
   * `why`/`fix` stay the English text for the CLI and older front ends.
   */
  whyText: z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }).optional(),
  fixText: z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }).optional(),
  fixCommand: z.string().optional()
})
export type BackendStatus = z.infer<typeof BackendStatusSchema>

export const DeviceSnapshotSchema = z.object({
  devices: z.array(DeviceSchema),
  backends: z.array(BackendStatusSchema),
  at: z.number()
})
export type DeviceSnapshot = z.infer<typeof DeviceSnapshotSchema>

export const SerialOptionsSchema = z.object({
  baudRate: z.number().int().min(50).max(4_000_000).default(115_200),
  dataBits: z.union([z.literal(5), z.literal(6), z.literal(7), z.literal(8)]).default(8),
  parity: z.enum(['none', 'even', 'odd', 'mark', 'space']).default('none'),
  stopBits: z.union([z.literal(1), z.literal(1.5), z.literal(2)]).default(1),
  /** Added after each line written by `serial_write` with text, and the delimiter `serial_read` waits for by default. */
  lineEnding: z.enum(['none', 'lf', 'cr', 'crlf']).default('crlf')
})
export type SerialOptions = z.infer<typeof SerialOptionsSchema>

export const devicesCalls = {
  'devices.list': defineCall(z.object({}), DeviceSnapshotSchema),
  /** The Devices panel's console: the user opens a port themselves (no agent, no approval). */
  'serial.open': defineCall(z.object({ path: z.string().min(1).max(4096), options: SerialOptionsSchema.partial().optional() }), z.object({ sessionId: z.string() })),
  'serial.write': defineCall(z.object({ sessionId: z.string(), text: z.string().max(100_000) }), z.object({ written: z.number() })),
  'serial.close': defineCall(z.object({ sessionId: z.string() }), z.object({ closed: z.boolean() }))
} as const

/** Bridge events of this domain (see BridgeEventSchema). */
export const DevicesChangedEventSchema = z.object({
  kind: z.literal('devices_changed'),
  snapshot: DeviceSnapshotSchema,
  added: z.array(z.string()),
  removed: z.array(z.string())
})
export const SerialDataEventSchema = z.object({ kind: z.literal('serial_data'), sessionId: z.string(), text: z.string() })
export const SerialClosedEventSchema = z.object({
  kind: z.literal('serial_closed'),
  sessionId: z.string(),
  path: z.string(),
  /** The device went away (unplugged, socat killed) rather than being closed. */
  disconnected: z.boolean(),
  reason: z.string().optional()
})
