/**
 * The three ways DeskClaw sees devices (docs/devices.md): `usb` (node-usb v3), `node-hid` and
 * `serialport`. Each is loaded lazily and may be missing — no libusb, no udev, no /sys/bus/usb,
 * no permission, a native module that does not load in this Electron — and then says so, with
 * the fix, instead of crashing or hiding the others.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { errorMessage, type DeviceKind } from '../../shared'
import { hidViewFromDevice, serialViewFromPortInfo, usbViewFromDevice, type HidView, type SerialView, type UsbView } from './views'

type DeviceText = { key: string; params?: Record<string, string | number> }

/** Why and the fix as message codes, and the fix's command apart (docs/architecture.md, "Texts from main"). */
export interface BackendUnavailableTexts {
  why: DeviceText
  fix?: DeviceText
  fixCommand?: string
}

/** A backend that cannot work here: why, and what the user can do about it. */
export class BackendUnavailableError extends Error {
  constructor(
    readonly why: string,
    readonly fix?: string,
    readonly texts?: BackendUnavailableTexts
  ) {
    super(why)
    this.name = 'BackendUnavailableError'
  }
}

export interface DeviceBackend<V> {
  readonly kind: DeviceKind
  /** Every device it sees now; throws BackendUnavailableError when it cannot look. */
  list(): Promise<V[]>
  /** Calls back when the OS says something was plugged in or out (where it can); returns the unsubscribe. */
  watch?(onChange: () => void): () => void
}

const UDEV_USB_COMMAND =
  'echo \'SUBSYSTEM=="usb", MODE="0660", GROUP="plugdev"\' | sudo tee /etc/udev/rules.d/50-deskclaw-usb.rules && sudo udevadm control --reload && sudo usermod -aG plugdev $USER'
const UDEV_HID_COMMAND =
  'echo \'KERNEL=="hidraw*", SUBSYSTEM=="hidraw", MODE="0660", GROUP="plugdev"\' | sudo tee /etc/udev/rules.d/50-deskclaw-hid.rules && sudo udevadm control --reload && sudo usermod -aG plugdev $USER'
const UDEV_USB_RULE = `add a udev rule such as: ${UDEV_USB_COMMAND} (then log in again)`
const UDEV_HID_RULE = `add a udev rule such as: ${UDEV_HID_COMMAND} (then log in again)`

function loadFailure(module: string, error: unknown): BackendUnavailableError {
  const message = errorMessage(error)
  if (/libusb/i.test(message)) {
    const linux = process.platform === 'linux'
    return new BackendUnavailableError(
      `${module} could not load: ${message}`,
      linux ? 'install libusb: sudo apt install libusb-1.0-0 (Debian/Ubuntu) or sudo dnf install libusb1' : undefined,
      {
        why: { key: 'devices.why.loadFailed', params: { module, detail: message } },
        ...(linux ? { fix: { key: 'devices.fix.installLibusb' }, fixCommand: 'sudo apt install libusb-1.0-0' } : {})
      }
    )
  }
  return new BackendUnavailableError(`${module} could not load in this build: ${message}`, 'reinstall DeskClaw; if you built it yourself, run npm install again', {
    why: { key: 'devices.why.loadFailedBuild', params: { module, detail: message } },
    fix: { key: 'devices.fix.reinstall' },
    fixCommand: 'npm install'
  })
}

/** Where a backend's raw records come from: the library (default), or recorded records (tests) through the same converters. */
export interface RawLister {
  list?: () => Promise<unknown[]>
}

/** USB through node-usb v3 (no libusb; the OS's own device list). */
export function usbBackend(platform: NodeJS.Platform = process.platform, raw: RawLister = {}): DeviceBackend<UsbView> {
  // v3 reads Linux's sysfs; without it (containers) even registering for hot-plug rejects unhandled.
  const sysfs = '/sys/bus/usb/devices'
  const usable = (): void => {
    if (platform === 'linux' && !existsSync(sysfs)) {
      throw new BackendUnavailableError(
        `${sysfs} does not exist (a container or a machine without USB)`,
        'run DeskClaw on the host, or pass the USB bus into the container (--device /dev/bus/usb -v /sys/bus/usb:/sys/bus/usb:ro)',
        { why: { key: 'devices.why.noSysfs', params: { path: sysfs } }, fix: { key: 'devices.fix.container' }, fixCommand: '--device /dev/bus/usb -v /sys/bus/usb:/sys/bus/usb:ro' }
      )
    }
  }
  const load = (): typeof import('usb') => {
    usable()
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require('usb') as typeof import('usb')
    } catch (error) {
      throw loadFailure('node-usb', error)
    }
  }
  return {
    kind: 'usb',
    async list() {
      let devices: unknown[]
      try {
        devices = raw.list ? await raw.list() : await load().usb.getDevices()
      } catch (error) {
        if (error instanceof BackendUnavailableError) throw error
        const message = errorMessage(error)
        const udev = /permission|access/i.test(message) && platform === 'linux'
        throw new BackendUnavailableError(`USB devices cannot be listed: ${message}`, udev ? UDEV_USB_RULE : undefined, {
          why: { key: 'devices.why.usbList', params: { detail: message } },
          ...(udev ? { fix: { key: 'devices.fix.udev' }, fixCommand: UDEV_USB_COMMAND } : {})
        })
      }
      return devices.map(usbViewFromDevice).filter((view): view is UsbView => view !== null)
    },
    watch(onChange) {
      try {
        const { usb } = load()
        const listener = () => onChange()
        usb.addEventListener('connect', listener)
        usb.addEventListener('disconnect', listener)
        return () => {
          usb.removeEventListener('connect', listener)
          usb.removeEventListener('disconnect', listener)
        }
      } catch {
        return () => {} // polling covers it
      }
    }
  }
}

/** HID through node-hid (hidapi; strings without opening the device). */
export function hidBackend(platform: NodeJS.Platform = process.platform, raw: RawLister = {}): DeviceBackend<HidView> {
  return {
    kind: 'hid',
    async list() {
      let listHid = raw.list
      if (!listHid) {
        try {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const hid = require('node-hid') as typeof import('node-hid')
          listHid = () => hid.devicesAsync()
        } catch (error) {
          throw loadFailure('node-hid', error)
        }
      }
      try {
        const devices = await listHid()
        return devices.map(hidViewFromDevice).filter((view): view is HidView => view !== null)
      } catch (error) {
        const message = errorMessage(error)
        // hidapi loads libusb only when it first looks: a missing library shows up here, not at require.
        if (/libusb|shared object|cannot open shared/i.test(message)) throw loadFailure('node-hid', error)
        throw new BackendUnavailableError(`HID devices cannot be listed: ${message}`, platform === 'linux' ? UDEV_HID_RULE : undefined, {
          why: { key: 'devices.why.hidList', params: { detail: message } },
          ...(platform === 'linux' ? { fix: { key: 'devices.fix.udev' }, fixCommand: UDEV_HID_COMMAND } : {})
        })
      }
    }
  }
}

export interface SerialBackendOptions {
  /** Ports the user added by path (ptys, socat links, /dev/rfcomm0, COM7): listed while they exist. */
  extraPorts: () => string[]
  platform?: NodeJS.Platform
  /** The lister (tests); default serialport's SerialPort.list(). */
  list?: () => Promise<unknown[]>
}

/**
 * Serial ports through serialport's lister, plus the ports the user added. Without udevadm (which
 * serialport's Linux lister runs) it reads /sys/class/tty itself, so ports are still listed.
 */
export function serialBackend(options: SerialBackendOptions): DeviceBackend<SerialView> {
  const platform = options.platform ?? process.platform
  const lister =
    options.list ??
    (async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { SerialPort } = require('serialport') as typeof import('serialport')
      return SerialPort.list()
    })
  return {
    kind: 'serial',
    async list() {
      let infos: unknown[]
      try {
        infos = await lister()
      } catch (error) {
        if (platform !== 'linux') {
          throw new BackendUnavailableError(`serial ports cannot be listed: ${errorMessage(error)}`, undefined, {
            why: { key: 'devices.why.serialList', params: { detail: errorMessage(error) } }
          })
        }
        infos = linuxTtysFromSysfs() // no udevadm: the kernel's own list, with the USB ids sysfs has
      }
      const views = infos.map((info) => serialViewFromPortInfo(info)).filter((view): view is SerialView => view !== null)
      const listed = new Set(views.map((view) => view.path))
      for (const path of options.extraPorts()) {
        if (listed.has(path) || !portExists(path, platform)) continue
        const view = serialViewFromPortInfo({ path }, { virtual: true })
        if (view) views.push(view)
      }
      return views
    }
  }
}

function portExists(path: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32' && /^COM\d+$/i.test(path)) return true // Windows COM names are not files; opening tells
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

/** /sys/class/tty/<name>/device exists for real ports; the USB ones carry idVendor/idProduct/serial up the tree. */
function linuxTtysFromSysfs(root = '/sys/class/tty'): unknown[] {
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  const ports: unknown[] = []
  for (const name of names) {
    if (!/^(ttyS|ttyUSB|ttyACM|ttyAMA|ttyWCH|ttyXRUSB|ttyMFD|ttyO|rfcomm)\d+$/.test(name)) continue
    const device = join(root, name, 'device')
    if (!existsSync(device)) continue
    const info: Record<string, string> = { path: `/dev/${name}` }
    // Walk up from the tty's device to the USB device that has the ids.
    let dir: string
    try {
      dir = realpathSync(device)
    } catch {
      continue
    }
    for (let depth = 0; depth < 6 && dir !== '/'; depth++, dir = join(dir, '..')) {
      const read = (file: string) => {
        try {
          return readFileSync(join(dir, file), 'utf8').trim()
        } catch {
          return undefined
        }
      }
      const vendorId = read('idVendor')
      if (vendorId) {
        info.vendorId = vendorId
        info.productId = read('idProduct') ?? ''
        const serial = read('serial')
        if (serial) info.serialNumber = serial
        const manufacturer = read('manufacturer')
        if (manufacturer) info.manufacturer = manufacturer
        info.locationId = basename(dir)
        break
      }
    }
    // A plain 8250 ttyS without a UART behind it has no port: skip those the kernel marks unknown.
    if (name.startsWith('ttyS') && !info.vendorId && readType(join(root, name)) === '0') continue
    ports.push(info)
  }
  return ports
}

function readType(ttyDir: string): string | undefined {
  try {
    return readFileSync(join(ttyDir, 'type'), 'utf8').trim()
  } catch {
    return undefined
  }
}
