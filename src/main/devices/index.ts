/**
 * Devices (docs/devices.md): the DeviceService (USB, HID and serial backends merged into one list,
 * hot-plug, backend states), serial sessions, and device naming from usb.ids and the board table.
 */
export { DeviceService, DEFAULT_POLL_MS, type DeviceBackends, type DeviceServiceOptions, type DevicesChange } from './device-service'
export { BackendUnavailableError, hidBackend, serialBackend, usbBackend, type DeviceBackend, type RawLister, type SerialBackendOptions } from './backends'
export {
  SerialSessions,
  SerialSessionError,
  LINE_ENDINGS,
  unescapeSerialText,
  openSerialPort,
  type PortOpener,
  type ReadResult,
  type SerialPortLike,
  type SerialSession,
  type SessionOwner
} from './serial-sessions'
export { mergeViews } from './merge'
export { nameDevice, type DeviceNaming, type NameParts, type NameText } from './names'
export { hidViewFromDevice, serialViewFromPortInfo, usbViewFromDevice, type HidView, type SerialView, type UsbView } from './views'
