/**
 * Plain views of what each device library returns (docs/devices.md): node-usb v3's UsbDevice,
 * node-hid's Device and serialport's PortInfo become small, JSON-safe records with the ids as four
 * lower-case hex digits. The converters are total: any input (null, a number, a record with odd
 * or missing fields, a UsbDevice whose string getters throw) gives a view or null, never a throw.
 */

export type SerialConnection = 'usb' | 'native' | 'virtual' | 'bluetooth' | 'unknown'

export interface UsbView {
  vendorId: string
  productId: string
  serialNumber?: string
  manufacturer?: string
  product?: string
  /** Where it is plugged: `bus-port.port…` as Linux names it in sysfs ("1-3.4"; macOS "14-2"). */
  location?: string
  /** bDeviceClass (9 = hub), when the library says. */
  deviceClass?: number
}

export interface HidView {
  vendorId: string
  productId: string
  serialNumber?: string
  manufacturer?: string
  product?: string
  path: string
  usagePage?: number
  usage?: number
  /** The USB interface number (-1 when the device is not USB or the OS does not say). */
  interface?: number
  /** Where it is plugged, when the path says (hidapi's libusb backend: "1-3.4:1.0" → "1-3.4"). */
  location?: string
  /** How the HID device is attached, as far as its path and interface number tell. */
  connection: 'usb' | 'bluetooth' | 'unknown'
}

export interface SerialView {
  path: string
  vendorId?: string
  productId?: string
  serialNumber?: string
  manufacturer?: string
  pnpId?: string
  locationId?: string
  connection: SerialConnection
}

export interface SerialViewOptions {
  /** A port the user added by path (pty, socat link): always `virtual`. */
  virtual?: boolean
}

/**
 * A USB id as four lower-case hex digits: 0x303a, "0x303A", "303a", "303A" and 12346 all give
 * "303a". Strings are hex (serialport's form); a string that is not a hex id up to ffff but is a
 * decimal one ("12346") is read as decimal. Anything else gives undefined.
 */
export function normalizeUsbId(value: unknown): string | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value <= 0xffff ? value.toString(16).padStart(4, '0') : undefined
  }
  if (typeof value !== 'string') return undefined
  const text = value.trim().replace(/^0x/i, '')
  if (/^[0-9a-f]{1,4}$/i.test(text)) return text.toLowerCase().padStart(4, '0')
  if (/^[0-9a-f]+$/i.test(text)) {
    // "0000303a" (zero-padded hex), else a decimal number written as a string.
    const hex = Number.parseInt(text, 16)
    if (hex <= 0xffff) return hex.toString(16).padStart(4, '0')
    if (/^\d+$/.test(text)) return normalizeUsbId(Number.parseInt(text, 10))
  }
  return undefined
}

/** node-usb v3's UsbDevice (or any record with the same fields). Null when it has no ids. */
export function usbViewFromDevice(device: unknown): UsbView | null {
  if (!isObject(device)) return null
  const vendorId = normalizeUsbId(read(device, 'vendorId'))
  const productId = normalizeUsbId(read(device, 'productId'))
  if (!vendorId || !productId) return null
  const view: UsbView = { vendorId, productId }
  // The string getters may open the device to read a descriptor, and throw when they cannot.
  assign(view, 'serialNumber', cleanSerial(read(device, 'serialNumber')))
  assign(view, 'manufacturer', cleanText(read(device, 'manufacturerName')))
  assign(view, 'product', cleanText(read(device, 'productName')))
  assign(view, 'location', usbLocation(read(device, 'bus'), read(device, 'ports')))
  const deviceClass = read(device, 'deviceClass')
  if (typeof deviceClass === 'number' && Number.isInteger(deviceClass)) view.deviceClass = deviceClass
  return view
}

/** node-hid's Device. Null without ids or a path (a HID device is opened by its path). */
export function hidViewFromDevice(device: unknown): HidView | null {
  if (!isObject(device)) return null
  const vendorId = normalizeUsbId(read(device, 'vendorId'))
  const productId = normalizeUsbId(read(device, 'productId'))
  const path = cleanText(read(device, 'path'))
  if (!vendorId || !productId || !path) return null
  const view: HidView = { vendorId, productId, path, connection: 'unknown' }
  assign(view, 'serialNumber', cleanSerial(read(device, 'serialNumber')))
  assign(view, 'manufacturer', cleanText(read(device, 'manufacturer')))
  assign(view, 'product', cleanText(read(device, 'product')))
  assign(view, 'usagePage', integer(read(device, 'usagePage')))
  assign(view, 'usage', integer(read(device, 'usage')))
  assign(view, 'interface', integer(read(device, 'interface')))
  assign(view, 'location', hidLocation(path))
  view.connection = hidConnection(path, view.interface)
  return view
}

/** serialport's PortInfo (Linux, macOS and Windows shapes). Null without a path. */
export function serialViewFromPortInfo(info: unknown, options: SerialViewOptions = {}): SerialView | null {
  if (!isObject(info)) return null
  const path = cleanText(read(info, 'path'))
  if (!path) return null
  const view: SerialView = { path, connection: 'unknown' }
  const vendorId = normalizeUsbId(read(info, 'vendorId'))
  const productId = normalizeUsbId(read(info, 'productId'))
  // An id alone names nothing and would match the wrong device: both or neither.
  if (vendorId && productId) {
    view.vendorId = vendorId
    view.productId = productId
  }
  const pnpId = cleanText(read(info, 'pnpId'))
  assign(view, 'pnpId', pnpId)
  const windows = pnpId !== undefined && pnpId.includes('\\')
  let serialNumber = cleanSerial(read(info, 'serialNumber'))
  // Windows: serialport takes the serial from the instance id, which for a device without one
  // (or for one interface of a composite device) is Windows' own "5&2E1C7C3B&0&2" — per port, not per device.
  if (serialNumber && windows && serialNumber.includes('&')) serialNumber = undefined
  assign(view, 'serialNumber', serialNumber)
  assign(view, 'manufacturer', cleanText(read(info, 'manufacturer')))
  assign(view, 'locationId', cleanText(read(info, 'locationId')))
  view.connection = serialConnection(view, options)
  return view
}

/** The location a serial port's locationId gives, in UsbView's form, when it can be compared. */
export function serialLocation(view: SerialView): string | undefined {
  const id = view.locationId
  if (!id) return undefined
  // Linux (DeskClaw's sysfs lister): the USB device's sysfs name, "1-3.4".
  if (/^\d+-\d+(\.\d+)*$/.test(id)) return normalizeLocation(id)
  // macOS: IOKit's locationID as 8 hex digits: the bus in the top byte, then one port per nibble.
  if (/^[0-9a-f]{8}$/i.test(id) && !view.pnpId?.includes('\\')) {
    const value = Number.parseInt(id, 16)
    const bus = (value >>> 24).toString(16).padStart(2, '0')
    const ports: number[] = []
    for (let rest = (value << 8) >>> 0; rest !== 0; rest = (rest << 4) >>> 0) ports.push(rest >>> 28)
    return usbLocation(bus, ports)
  }
  // Windows' "Port_#0002.Hub_#0001" names the hub's port, not the path from the root: not comparable.
  return undefined
}

function serialConnection(view: SerialView, options: SerialViewOptions): SerialConnection {
  if (options.virtual) return 'virtual'
  const { path, pnpId } = view
  if (/rfcomm/i.test(path) || /^BTHENUM\\/i.test(pnpId ?? '') || /bluetooth/i.test(path)) return 'bluetooth'
  if (view.vendorId && view.productId) return 'usb'
  if (/^\/dev\/(pts\/|tnt|ttyV|pty)/.test(path)) return 'virtual'
  // On-board UARTs: PC 8250/16550 ports, Raspberry Pi's PL011 and mini-UART, and Windows' ACPI COM ports.
  if (/^\/dev\/(ttyS|ttyAMA|ttyMFD|ttyO|ttyTHS|ttymxc|ttySAC)\d+$/.test(path) || /^ACPI\\/i.test(pnpId ?? '')) return 'native'
  return 'unknown'
}

function hidConnection(path: string, interfaceNumber: number | undefined): HidView['connection'] {
  // Windows: classic Bluetooth HID and Bluetooth LE HID-over-GATT devices carry their service UUID.
  if (/bth|00001124-0000-1000-8000-00805f9b34fb|00001812-0000-1000-8000-00805f9b34fb/i.test(path)) return 'bluetooth'
  if (interfaceNumber !== undefined && interfaceNumber >= 0) return 'usb'
  if (/^\\\\\?\\hid#vid_/i.test(path) || hidLocation(path)) return 'usb'
  return 'unknown'
}

/** hidapi's libusb backend names a device "1-3.4:1.0" (bus-ports:config.interface). */
function hidLocation(path: string): string | undefined {
  const match = /^(\d+-\d+(?:\.\d+)*):\d+\.\d+$/.exec(path)
  return match ? normalizeLocation(match[1]!) : undefined
}

function usbLocation(bus: unknown, ports: unknown): string | undefined {
  const busText = typeof bus === 'number' && Number.isInteger(bus) ? String(bus) : cleanText(bus)
  if (!busText) return undefined
  const chain = Array.isArray(ports) ? ports.filter((port): port is number => typeof port === 'number' && Number.isInteger(port) && port >= 0) : []
  if (chain.length === 0) return undefined // a root hub, or no path known
  return normalizeLocation(`${busText}-${chain.join('.')}`)
}

/** "001-3.4" → "1-3.4" (node-usb pads Linux bus numbers, sysfs does not); "0e-2" → "e-2". */
function normalizeLocation(location: string): string {
  return location.replace(/^0+(?=[0-9a-z])/i, '')
}

function read(record: Record<string, unknown>, key: string): unknown {
  try {
    return record[key]
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  // Some descriptors are padded with NULs or spaces.
  const text = value.replace(/\0/g, '').trim()
  return text === '' ? undefined : text
}

function cleanSerial(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return cleanText(value)
}

function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined
}

function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value
}
