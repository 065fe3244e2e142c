/** The recorded device descriptors (test/fixtures/devices/) through the same converters live devices take. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hidViewFromDevice, serialViewFromPortInfo, usbViewFromDevice, type HidView, type SerialView, type UsbView } from '../../../src/main/devices/views'

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'devices')

export interface RawMachine {
  usb?: unknown[]
  hid?: unknown[]
  serial?: unknown[]
}

export interface DeviceFixture {
  about: string
  linux: RawMachine
  windows?: RawMachine
  darwin?: RawMachine
}

export function fixture(name: string): DeviceFixture {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as DeviceFixture
}

export function machine(name: string): RawMachine {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as RawMachine
}

/** Raw records → views, as the backends do (null views dropped). */
export function toViews(raw: RawMachine): { usb: UsbView[]; hid: HidView[]; serial: SerialView[] } {
  return {
    usb: (raw.usb ?? []).map(usbViewFromDevice).filter((view): view is UsbView => view !== null),
    hid: (raw.hid ?? []).map(hidViewFromDevice).filter((view): view is HidView => view !== null),
    serial: (raw.serial ?? []).map((info) => serialViewFromPortInfo(info)).filter((view): view is SerialView => view !== null)
  }
}

/** A node-usb v3 UsbDevice-like object whose string getters behave like the real ones (they may throw). */
export function usbDeviceWithGetters(fields: Record<string, unknown>, throwing: Array<'manufacturerName' | 'productName' | 'serialNumber'>): object {
  const { manufacturerName, productName, serialNumber, ...plain } = fields
  const strings: Record<string, unknown> = { manufacturerName, productName, serialNumber }
  const device: Record<string, unknown> = { ...plain }
  for (const key of ['manufacturerName', 'productName', 'serialNumber'] as const) {
    Object.defineProperty(device, key, {
      enumerable: true,
      get() {
        if (throwing.includes(key)) throw new Error('open error: Permission denied (os error 13)')
        return strings[key] ?? null
      }
    })
  }
  return device
}
