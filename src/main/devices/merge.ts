/**
 * One entry per physical device (docs/devices.md): the USB, HID and serial backends each see part
 * of a device — the USB device, its HID interfaces, its serial ports — and these are put together:
 *
 * 1. by vendor id + product id + serial number, when the serial number identifies (no backend sees
 *    two devices with the same one: cheap boards sometimes all say "0001");
 * 2. by vendor id + product id + where it is plugged (USB bus and port chain), when both sides know it;
 * 3. by vendor id + product id alone, when no backend sees more than one device with those ids;
 * 4. two or more identical devices without serial numbers (two CH340 adapters) stay as many entries:
 *    when every backend that sees them sees the same number, the i-th of each is put with the i-th of
 *    the others (sorted by port, location, path) — the entries are right, which USB record goes with
 *    which port may not be, so the location is then not used for the id.
 *
 * Ids are stable while the device stays plugged in the same place: `usb:vid:pid:serial`, else
 * `usb:vid:pid@location`, else `serial:<first port>`, else `hid:<first HID path>`.
 */
import type { Device, DeviceKind } from '../../shared/bridge/devices'
import { lookupBoard } from './boards'
import { nameDevice } from './names'
import { usbIds, type UsbIds } from './usb-ids'
import { serialLocation, type HidView, type SerialView, type UsbView } from './views'

export interface DeviceViews {
  usb: UsbView[]
  hid: HidView[]
  serial: SerialView[]
}

export interface MergeOptions {
  /** The names database (tests); default the bundled usb.ids. */
  ids?: UsbIds
}

interface Unit {
  kind: DeviceKind
  vendorId?: string
  productId?: string
  serialNumber?: string
  /** The serial number tells this device from every other one the backends see. */
  identifies: boolean
  location?: string
  manufacturer?: string
  product?: string
  ports: string[]
  hidPaths: Array<{ path: string; interface: number }>
  connection: Device['connection']
  /** For pairing identical devices: the port, location or path it sorts by. */
  order: string
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
const compare = (a: string, b: string): number => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)

/** Merges the backends' views into the device list the UI and the tools get, sorted (boards first). */
export function mergeViews(views: Partial<DeviceViews>, options: MergeOptions = {}): Device[] {
  const usb = arrayOf(views?.usb)
  const hid = arrayOf(views?.hid)
  const serial = arrayOf(views?.serial)

  // How many USB devices carry each vid:pid:serial: more than one and the serial identifies nothing.
  const usbSerialCount = new Map<string, number>()
  for (const view of usb) {
    const key = serialKey(view.vendorId, view.productId, view.serialNumber)
    if (key) usbSerialCount.set(key, (usbSerialCount.get(key) ?? 0) + 1)
  }
  const identifying = (key: string | undefined): key is string => key !== undefined && (usbSerialCount.get(key) ?? 0) <= 1

  const units: Unit[] = [...usb.map((view) => usbUnit(view, identifying)), ...hidUnits(hid, identifying), ...serialUnits(serial, identifying)]
  const sets = new DisjointSets(units.length)
  const pairedByOrder = new Set<number>()

  // 1 and 2: serial number, location.
  const firstBy = new Map<string, number>()
  units.forEach((unit, index) => {
    const bySerial = serialKey(unit.vendorId, unit.productId, unit.serialNumber)
    const byLocation = unit.vendorId && unit.productId && unit.location ? `${unit.vendorId}:${unit.productId}@${unit.location}` : undefined
    for (const key of [unit.identifies && bySerial ? `s|${bySerial}` : undefined, byLocation ? `l|${byLocation}` : undefined]) {
      if (!key) continue
      const first = firstBy.get(key)
      if (first === undefined) firstBy.set(key, index)
      else sets.union(first, index)
    }
  })

  // 3 and 4: the same ids.
  const byIds = new Map<string, number[]>()
  units.forEach((unit, index) => {
    if (!unit.vendorId || !unit.productId) return
    const key = `${unit.vendorId}:${unit.productId}`
    byIds.set(key, [...(byIds.get(key) ?? []), index])
  })
  for (const indexes of byIds.values()) {
    const components = groupBy(indexes, (index) => sets.find(index))
    if (components.length < 2) continue
    const perKind = new Map<DeviceKind, number>()
    for (const component of components) {
      for (const kind of new Set(component.map((index) => units[index]!.kind))) perKind.set(kind, (perKind.get(kind) ?? 0) + 1)
    }
    if ([...perKind.values()].every((count) => count <= 1)) {
      // Each backend sees it once: one device, unless two parts say they are different ones.
      const merged: number[][] = []
      for (const component of components) {
        const target = merged.find((group) => compatible(group.map((i) => units[i]!), component.map((i) => units[i]!)))
        if (target) {
          sets.union(target[0]!, component[0]!)
          target.push(...component)
        } else merged.push([...component])
      }
      continue
    }
    pairIdentical(components, units, sets, pairedByOrder)
  }

  const ids = options.ids ?? usbIds()
  const devices = groupBy(
    units.map((_, index) => index),
    (index) => sets.find(index)
  ).map((component) => toDevice(component.map((index) => units[index]!), component.some((index) => pairedByOrder.has(index)), ids))
  devices.sort((a, b) => rank(a) - rank(b) || compare(a.name, b.name) || compare(a.id, b.id))
  uniqueIds(devices)
  return devices
}

/**
 * Identical devices without serial numbers, each backend seeing the same number of them, every
 * part still alone: the i-th of each backend (in port / location / path order) make device i.
 */
function pairIdentical(components: number[][], units: Unit[], sets: DisjointSets, pairedByOrder: Set<number>): void {
  if (components.some((component) => component.length > 1)) return
  const byKind = new Map<DeviceKind, Unit[]>()
  const indexOf = new Map<Unit, number>()
  for (const [index] of components) {
    const unit = units[index!]!
    indexOf.set(unit, index!)
    byKind.set(unit.kind, [...(byKind.get(unit.kind) ?? []), unit])
  }
  if (byKind.size < 2) return
  const counts = new Set([...byKind.values()].map((list) => list.length))
  if (counts.size !== 1) return
  const usbUnits = byKind.get('usb') ?? []
  // Different strings: maybe not the same kind of device after all (two boards on one generic pid).
  if (new Set(usbUnits.map((unit) => `${unit.manufacturer}|${unit.product}`)).size > 1) return
  const lists = [...byKind.values()].map((list) => [...list].sort((a, b) => compare(a.order, b.order)))
  for (let i = 0; i < lists[0]!.length; i++) {
    const indexes = lists.map((list) => indexOf.get(list[i]!)!)
    for (const index of indexes) {
      pairedByOrder.add(index)
      sets.union(indexes[0]!, index)
    }
  }
}

/** Parts that may be one device: no two different serial numbers, no two different locations. */
function compatible(a: Unit[], b: Unit[]): boolean {
  const differ = (field: 'serialNumber' | 'location') => {
    const left = a.map((unit) => unit[field]?.toLowerCase()).find(Boolean)
    const right = b.map((unit) => unit[field]?.toLowerCase()).find(Boolean)
    return left !== undefined && right !== undefined && left !== right
  }
  return !differ('serialNumber') && !differ('location')
}

function toDevice(parts: Unit[], pairedByOrder: boolean, ids: UsbIds): Device {
  const pick = <K extends keyof Unit>(field: K, order: DeviceKind[] = ['usb', 'hid', 'serial']): Unit[K] | undefined => {
    for (const kind of order) {
      const value = parts.find((part) => part.kind === kind && part[field] !== undefined)?.[field]
      if (value !== undefined) return value
    }
    return undefined
  }
  const vendorId = pick('vendorId')
  const productId = pick('productId')
  const serialNumber = pick('serialNumber')
  const location = pairedByOrder ? undefined : pick('location')
  const kinds = [...new Set(parts.map((part) => part.kind))].sort()
  const ports = unique(parts.flatMap((part) => part.ports)).sort(compare)
  const hidEntries = parts.flatMap((part) => part.hidPaths).sort((a, b) => a.interface - b.interface || compare(a.path, b.path))
  const hidPaths = unique(hidEntries.map((entry) => entry.path))
  const connection = pick('connection', ['usb', 'serial', 'hid']) ?? 'unknown'
  const naming = nameDevice(
    { vendorId, productId, manufacturer: pick('manufacturer'), product: pick('product'), ports, connection: connection === 'usb' ? undefined : connection },
    ids
  )
  // The serial number of a part whose serial identifies it (not one of several "0001"s).
  const identifying = parts.find((part) => part.identifies && part.serialNumber !== undefined)?.serialNumber
  let id: string
  if (vendorId && productId && identifying) id = `usb:${vendorId}:${productId}:${identifying}`
  else if (vendorId && productId && location) id = `usb:${vendorId}:${productId}@${location}`
  else if (ports[0]) id = `serial:${ports[0]}`
  else if (hidPaths[0]) id = `hid:${hidPaths[0]}`
  else id = vendorId && productId ? `usb:${vendorId}:${productId}` : 'device'
  const device: Device = { id, kinds, name: naming.name, ports, connection }
  if (naming.vendorName) device.vendorName = naming.vendorName
  if (naming.productName) device.productName = naming.productName
  if (vendorId) device.vendorId = vendorId
  if (productId) device.productId = productId
  if (serialNumber) device.serialNumber = serialNumber
  if (hidPaths.length > 0) device.hidPaths = hidPaths
  if (naming.board) device.board = naming.board
  if (naming.nameText) device.nameText = naming.nameText
  if (naming.boardText) device.boardText = naming.boardText
  return device
}

/** Boards, then USB-serial adapters, then other devices, then ports without ids (on-board, virtual, Bluetooth). */
function rank(device: Device): number {
  const match = lookupBoard(device.vendorId, device.productId)
  if (match?.entry.kind === 'board') return 0
  if (match?.entry.kind === 'adapter') return 1
  if (device.vendorId && device.productId) return 2
  return 3
}

function usbUnit(view: UsbView, identifying: (key: string | undefined) => key is string): Unit {
  return {
    kind: 'usb',
    vendorId: view.vendorId,
    productId: view.productId,
    serialNumber: view.serialNumber,
    identifies: identifying(serialKey(view.vendorId, view.productId, view.serialNumber)),
    location: view.location,
    manufacturer: view.manufacturer,
    product: view.product,
    ports: [],
    hidPaths: [],
    connection: 'usb',
    order: view.location ?? ''
  }
}

/**
 * HID entries of one device: several interfaces (a keyboard's boot and media interfaces, a security
 * key's OTP and FIDO ones), and on Linux several top-level collections on one path. Grouped by serial
 * number, else by location, else by ids — splitting when one interface number shows up on several
 * paths (two identical keyboards): the i-th path of each interface makes device i.
 */
function hidUnits(views: HidView[], identifying: (key: string | undefined) => key is string): Unit[] {
  const groups = new Map<string, HidView[]>()
  const add = (key: string, view: HidView) => groups.set(key, [...(groups.get(key) ?? []), view])
  for (const view of views) {
    const bySerial = serialKey(view.vendorId, view.productId, view.serialNumber)
    if (identifying(bySerial)) add(`s|${bySerial}`, view)
    else if (view.location) add(`l|${view.vendorId}:${view.productId}@${view.location}`, view)
    else add(`i|${view.vendorId}:${view.productId}`, view)
  }
  const units: Unit[] = []
  for (const [key, group] of groups) {
    const devices = key.startsWith('i|') ? splitByInterface(group) : [group]
    const identifies = key.startsWith('s|')
    for (const members of devices) {
      const first = members[0]!
      const paths = members.map((view) => ({ path: view.path, interface: view.interface ?? -1 }))
      units.push({
        kind: 'hid',
        vendorId: first.vendorId,
        productId: first.productId,
        serialNumber: members.find((view) => view.serialNumber)?.serialNumber,
        identifies,
        location: first.location,
        manufacturer: members.find((view) => view.manufacturer)?.manufacturer,
        product: members.find((view) => view.product)?.product,
        ports: [],
        hidPaths: paths,
        connection: members.some((view) => view.connection === 'usb') ? 'usb' : members.some((view) => view.connection === 'bluetooth') ? 'bluetooth' : 'unknown',
        order: paths.map((entry) => entry.path).sort(compare)[0] ?? ''
      })
    }
  }
  return units
}

function splitByInterface(group: HidView[]): HidView[][] {
  const pathsByInterface = new Map<number, string[]>()
  for (const view of group) {
    const key = view.interface ?? -1
    const paths = pathsByInterface.get(key) ?? []
    if (!paths.includes(view.path)) paths.push(view.path)
    pathsByInterface.set(key, paths)
  }
  const count = Math.max(...[...pathsByInterface.values()].map((paths) => paths.length))
  if (count <= 1) return [group]
  const slot = new Map<string, number>()
  for (const paths of pathsByInterface.values()) paths.sort(compare).forEach((path, index) => slot.set(path, index))
  const devices: HidView[][] = Array.from({ length: count }, () => [])
  for (const view of group) devices[slot.get(view.path) ?? 0]!.push(view)
  return devices.filter((members) => members.length > 0)
}

/**
 * Serial ports of one device (an FT2232's two ports) share its serial number; ports without one stay
 * alone. Two ports with the same serial number and the same Linux by-id name (same interface) are
 * two devices that share a made-up serial number, not one device.
 */
function serialUnits(views: SerialView[], identifying: (key: string | undefined) => key is string): Unit[] {
  const bySerial = new Map<string, SerialView[]>()
  for (const view of views) {
    const key = serialKey(view.vendorId, view.productId, view.serialNumber)
    if (identifying(key)) bySerial.set(key, [...(bySerial.get(key) ?? []), view])
  }
  const shared = new Set<string>()
  for (const [key, members] of bySerial) {
    const names = members.map((view) => view.pnpId).filter((pnpId): pnpId is string => pnpId !== undefined && !pnpId.includes('\\'))
    if (new Set(names).size < names.length) shared.add(key)
  }
  const groups = new Map<string, SerialView[]>()
  let alone = 0
  const identifies = new Set<string>()
  for (const view of views) {
    const serial = serialKey(view.vendorId, view.productId, view.serialNumber)
    const key = identifying(serial) && !shared.has(serial) ? `s|${serial}` : `p|${alone++}`
    if (key.startsWith('s|')) identifies.add(key)
    groups.set(key, [...(groups.get(key) ?? []), view])
  }
  return [...groups].map(([key, members]) => {
    const first = members[0]!
    const ports = unique(members.map((view) => view.path)).sort(compare)
    // Windows' serialport "manufacturer" is the driver's provider ("Microsoft" for every CDC device), not the device's.
    const trusted = members.find((view) => view.manufacturer && !view.pnpId?.includes('\\'))
    return {
      kind: 'serial' as const,
      vendorId: first.vendorId,
      productId: first.productId,
      serialNumber: members.find((view) => view.serialNumber)?.serialNumber,
      identifies: identifies.has(key),
      location: members.map(serialLocation).find(Boolean),
      manufacturer: trusted?.manufacturer,
      product: undefined,
      ports,
      hidPaths: [],
      connection: members.some((view) => view.connection === 'usb') ? 'usb' : first.connection,
      order: ports[0] ?? ''
    }
  })
}

function serialKey(vendorId: string | undefined, productId: string | undefined, serialNumber: string | undefined): string | undefined {
  return vendorId && productId && serialNumber ? `${vendorId}:${productId}:${serialNumber.toLowerCase()}` : undefined
}

function uniqueIds(devices: Device[]): void {
  const seen = new Map<string, number>()
  for (const device of devices) {
    const count = (seen.get(device.id) ?? 0) + 1
    seen.set(device.id, count)
    if (count > 1) device.id = `${device.id}#${count}`
  }
}

function groupBy<T, K>(items: T[], key: (item: T) => K): T[][] {
  const groups = new Map<K, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return [...groups.values()]
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)]
}

function arrayOf<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === 'object' && item !== null) : []
}

class DisjointSets {
  private readonly parent: number[]
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, index) => index)
  }
  find(index: number): number {
    let root = index
    while (this.parent[root] !== root) root = this.parent[root]!
    for (let node = index; this.parent[node] !== root; ) {
      const next = this.parent[node]!
      this.parent[node] = root
      node = next
    }
    return root
  }
  union(a: number, b: number): void {
    const rootA = this.find(a)
    const rootB = this.find(b)
    if (rootA !== rootB) this.parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB)
  }
}
