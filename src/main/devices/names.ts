/**
 * What to call a device (docs/devices.md), in this order: the board table's exact vid+pid entry;
 * the strings the device reports (manufacturer, product); usb.ids' product name; the board table's
 * vendor-wide entry; usb.ids' vendor with "unknown product"; "Unknown device (vvvv:pppp)". A port
 * without ids (an on-board UART, a pty) is called by its path.
 *
 * A vendor-wide table entry ("Adafruit board") comes after the device's own strings and usb.ids,
 * which name the model; it still gives Device.board.
 */
import { lookupBoard } from './boards'
import { usbIds, type UsbIds } from './usb-ids'
import { normalizeUsbId, type SerialConnection } from './views'

export interface NameParts {
  vendorId?: string
  productId?: string
  /** The device's own strings (USB descriptors, via the OS). */
  manufacturer?: string
  product?: string
  /** Serial port paths, for a device without ids. */
  ports?: string[]
  /** How a port without ids is attached ("virtual" for a pty or a port the user added). */
  connection?: SerialConnection
}

/** A name's framing as a message code the UI translates (devices.name.*); names from usb.ids and the device stay params. */
export interface NameText {
  key: string
  params?: Record<string, string>
}

export interface DeviceNaming {
  /** In English, for the CLI and the model. */
  name: string
  /** When the name is more than product names (a port, an unknown device): the same as a message code (issue 22, item 5). */
  nameText?: NameText
  boardText?: NameText
  vendorName?: string
  productName?: string
  board?: string
}

/** Names a device from its ids and strings; `ids` defaults to the bundled usb.ids. */
export function nameDevice(parts: NameParts, ids: UsbIds = usbIds()): DeviceNaming {
  const vendorId = normalizeUsbId(parts.vendorId)
  const productId = normalizeUsbId(parts.productId)
  const manufacturer = deviceString(parts.manufacturer, vendorId, productId)
  const product = deviceString(parts.product, vendorId, productId)

  if (!vendorId || !productId) {
    const port = Array.isArray(parts.ports) ? parts.ports.find((path) => typeof path === 'string' && path !== '') : undefined
    if (port) {
      const kind = portKind(port, parts.connection)
      return { name: `${PORT_LABELS[kind]} ${port}`, nameText: { key: `devices.name.port.${kind}`, params: { path: port } } }
    }
    if (product) return { name: joinName(manufacturer, product), ...optional({ vendorName: manufacturer, productName: product }) }
    return { name: 'Unknown device', nameText: { key: 'devices.name.unknown' }, ...optional({ vendorName: manufacturer }) }
  }

  const safeIds = guard(ids)
  const idsVendor = safeIds.vendor(vendorId)
  const idsProduct = safeIds.product(vendorId, productId)
  const vendorName = manufacturer ?? idsVendor
  const productName = product ?? idsProduct
  const ids4 = `${vendorId}:${productId}`
  const match = lookupBoard(vendorId, productId)
  const entry = match?.entry

  let name: string
  let nameText: NameText | undefined
  let board: string | undefined
  let boardText: NameText | undefined
  if (entry && match.exact) {
    if (entry.kind === 'adapter') {
      const vendor = idsVendor ?? entry.vendor
      name = `${entry.name} (${vendor}) — board unknown`
      nameText = { key: 'devices.name.adapter', params: { adapter: entry.name, vendor } }
      board = `${entry.name} — board unknown`
      boardText = { key: 'devices.board.adapter', params: { adapter: entry.name } }
    } else {
      name = entry.name
      board = entry.kind === 'board' ? (entry.board ?? entry.name) : undefined
    }
  } else {
    if (entry?.kind === 'board') board = entry.board ?? entry.name
    const vendorForName = manufacturer ?? idsVendor ?? entry?.vendor
    if (product) name = joinName(vendorForName, product)
    else if (idsProduct) name = joinName(vendorForName, idsProduct)
    else if (entry) name = entry.name
    else if (vendorForName) {
      name = `${shortVendor(vendorForName)}, unknown product (${ids4})`
      nameText = { key: 'devices.name.unknownProduct', params: { vendor: shortVendor(vendorForName), ids: ids4 } }
    } else {
      name = `Unknown device (${ids4})`
      nameText = { key: 'devices.name.unknownIds', params: { ids: ids4 } }
    }
  }
  return {
    name,
    ...(nameText ? { nameText } : {}),
    ...(boardText ? { boardText } : {}),
    ...optional({ vendorName: vendorName ?? entry?.vendor, productName, board })
  }
}

/** "Corsair Components, Inc." → "Corsair Components": the vendor as it reads before a product name. */
export function shortVendor(vendor: string): string {
  let short = vendor.trim()
  for (;;) {
    const next = short.replace(/[,\s]+(inc|ltd|llc|l\.l\.c|co|corp|corporation|gmbh|ag|s\.?a|b\.?v|plc|limited|industries|international|technology|electronics)\.?$/i, '').trim()
    if (next === short || next === '') return short
    short = next
  }
}

function joinName(vendor: string | undefined, product: string): string {
  if (!vendor) return product
  const short = shortVendor(vendor)
  const firstWord = short.split(/\s+/)[0]!.toLowerCase()
  return product.toLowerCase().includes(firstWord) ? product : `${short} ${product}`
}

type PortKind = 'virtual' | 'bluetooth' | 'serial'

const PORT_LABELS: Readonly<Record<PortKind, string>> = { virtual: 'Virtual port', bluetooth: 'Bluetooth serial port', serial: 'Serial port' }

function portKind(path: string, connection: SerialConnection | undefined): PortKind {
  if (connection === 'virtual' || (connection === undefined && /^\/dev\/(pts\/|tnt|ttyV|pty)/.test(path))) return 'virtual'
  if (connection === 'bluetooth') return 'bluetooth'
  return 'serial'
}

/**
 * A device string worth showing: not empty, not the id itself (udev reports the vendor id when the
 * device has no manufacturer string), not a Windows driver placeholder ("(Standard port types)").
 */
function deviceString(value: unknown, vendorId: string | undefined, productId: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.replace(/\0/g, '').trim()
  if (text === '' || /^(0x)?[0-9a-f]{4}$/i.test(text) || text === vendorId || text === productId) return undefined
  if (/^\(standard .*\)$/i.test(text)) return undefined
  return text
}

/** usb.ids lookups that cannot throw (an injected database might). */
function guard(ids: UsbIds): Pick<UsbIds, 'vendor' | 'product'> {
  return {
    vendor: (vendorId) => {
      try {
        return ids.vendor(vendorId)
      } catch {
        return undefined
      }
    },
    product: (vendorId, productId) => {
      try {
        return ids.product(vendorId, productId)
      } catch {
        return undefined
      }
    }
  }
}

function optional<T extends Record<string, string | undefined>>(fields: T): Partial<T> {
  const out: Partial<T> = {}
  for (const [key, value] of Object.entries(fields) as Array<[keyof T, T[keyof T]]>) if (value !== undefined) out[key] = value
  return out
}
