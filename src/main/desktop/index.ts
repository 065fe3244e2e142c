/**
 * Desktop automation (docs/desktop.md): the driver process (nut-js, out of the app's process), the
 * service tools and the CLI use, the input lock, screenshots and coordinates, keys and the clipboard.
 */
export { diagnoseDesktop, type DesktopCheck, type DesktopDiagnosis } from './diagnose'
export { checkDisplay, type DisplayCheck, type DisplayServer } from './display'
export { systemClipboard, unavailableClipboard, ClipboardUnavailableError, type ClipboardSnapshot, type DesktopClipboard } from './clipboard'
export { DesktopDriver, DesktopUnavailableError, DriverOperationError, type DesktopDriverOptions } from './driver-host'
export { forkDriver, resolveDriverEntry, type DriverChannel, type DriverExit, type DriverLauncher } from './driver-launcher'
export {
  DesktopService,
  DesktopActionError,
  DesktopBusyError,
  DEFAULT_SCREENSHOT_MAX_WIDTH,
  DEFAULT_STOP_SHORTCUT,
  type DesktopServiceOptions,
  type StopReason
} from './desktop-service'
export type { DesktopCaller, Operator, Screenshot, ScreenshotTarget } from './operator'
export { frameScale, toScreenPoint, toFramePoint, type Frame } from './frames'
export { InputLease, type LeaseHolder } from './input-lease'
export { keyNameTable, parseKeyCombo, textToKeyStrokes, typeableAsKeys, KeyComboError } from './keys'
export { markPoint } from './mark-point'
export type { MouseButton, Point, Rect, ScrollDirection, WindowInfo, HelloResult } from './protocol'
export * from './ocr'
