import { describe, expect, it } from 'vitest'
import { hidViewFromDevice, normalizeUsbId, serialLocation, serialViewFromPortInfo, usbViewFromDevice } from '../../../src/main/devices/views'
import { fixture, usbDeviceWithGetters } from './fixtures'

describe('normalizeUsbId', () => {
  it('gives four lower-case hex digits from numbers and hex strings', () => {
    for (const value of [0x303a, 12346, '0x303A', '303a', '303A', '0X303a', ' 303a ', '0000303a']) expect(normalizeUsbId(value)).toBe('303a')
    expect(normalizeUsbId(5)).toBe('0005')
    expect(normalizeUsbId('5')).toBe('0005')
    expect(normalizeUsbId(0)).toBe('0000')
  })

  it('reads a decimal string that is not a 4-digit hex id as decimal', () => {
    expect(normalizeUsbId('12346')).toBe('303a')
  })

  it('gives undefined for anything else', () => {
    for (const value of [undefined, null, '', 'zz', '0x', -1, 0x10000, 1.5, Number.NaN, '1234567', {}, [], true]) expect(normalizeUsbId(value)).toBeUndefined()
  })
})

describe('usbViewFromDevice', () => {
  it('converts a node-usb v3 record', () => {
    expect(usbViewFromDevice(fixture('esp32-s3').linux.usb![0])).toEqual({
      vendorId: '303a',
      productId: '1001',
      serialNumber: 'F4:12:FA:4D:3B:C8',
      manufacturer: 'Espressif',
      product: 'USB JTAG/serial debug unit',
      location: '1-2',
      deviceClass: 239
    })
    // null strings are left out; the hub-and-port chain is kept.
    expect(usbViewFromDevice(fixture('ftdi-ft232r').linux.usb![0])).toMatchObject({ location: '1-1.2' })
    expect(usbViewFromDevice(fixture('ch340').linux.usb![0])).toEqual({ vendorId: '1a86', productId: '7523', product: 'USB2.0-Serial', location: '1-3', deviceClass: 255 })
  })

  it('survives string getters that throw (no permission to open the device)', () => {
    const raw = fixture('yubikey-5-nfc').linux.usb![0] as Record<string, unknown>
    const device = usbDeviceWithGetters(raw, ['manufacturerName', 'productName', 'serialNumber'])
    expect(usbViewFromDevice(device)).toEqual({ vendorId: '1050', productId: '0407', location: '3-2', deviceClass: 0 })
    const some = usbDeviceWithGetters({ ...raw, serialNumber: 'abc' }, ['productName'])
    expect(usbViewFromDevice(some)).toMatchObject({ manufacturer: 'Yubico', serialNumber: 'abc' })
    expect(usbViewFromDevice(some)).not.toHaveProperty('product')
  })

  it('takes macOS bus ids (the locationID top byte) as they are', () => {
    expect(usbViewFromDevice(fixture('esp32-s3').darwin!.usb![0])?.location).toBe('14-2')
  })

  it('leaves out a location it cannot know (a root hub, no bus)', () => {
    expect(usbViewFromDevice({ vendorId: 0x1d6b, productId: 2, bus: '001', ports: [] })).toEqual({ vendorId: '1d6b', productId: '0002' })
    expect(usbViewFromDevice({ vendorId: 0x1d6b, productId: 2, ports: [1] })).toEqual({ vendorId: '1d6b', productId: '0002' })
  })
})

describe('hidViewFromDevice', () => {
  it('converts a node-hid record', () => {
    const [otp, fido] = fixture('yubikey-5-nfc').linux.hid!
    expect(hidViewFromDevice(otp)).toEqual({
      vendorId: '1050',
      productId: '0407',
      path: '/dev/hidraw2',
      manufacturer: 'Yubico',
      product: 'YubiKey OTP+FIDO+CCID',
      usagePage: 1,
      usage: 6,
      interface: 0,
      connection: 'usb'
    })
    expect(hidViewFromDevice(fido)).toMatchObject({ usagePage: 0xf1d0, usage: 1, interface: 1 })
  })

  it('reads the location from a libusb-style path and Bluetooth from a Windows path', () => {
    expect(hidViewFromDevice({ vendorId: 0x46d, productId: 0xc52b, path: '3-1:1.2', interface: 2 })).toMatchObject({ location: '3-1', connection: 'usb' })
    const bluetooth = hidViewFromDevice({
      vendorId: 0x46d,
      productId: 0xb023,
      path: '\\\\?\\HID#{00001124-0000-1000-8000-00805f9b34fb}_VID&0002046d_PID&b023#9&1c2d3e4f&0&0000#{4d1e55b2-f16f-11cf-88cb-001111000030}',
      interface: -1
    })
    expect(bluetooth?.connection).toBe('bluetooth')
    expect(hidViewFromDevice({ vendorId: 0x6cb, productId: 0xcdaa, path: '/dev/hidraw9', interface: -1 })?.connection).toBe('unknown')
  })

  it('needs ids and a path', () => {
    expect(hidViewFromDevice({ vendorId: 1, productId: 2 })).toBeNull()
    expect(hidViewFromDevice({ vendorId: 1, path: '/dev/hidraw0' })).toBeNull()
  })
})

describe('serialViewFromPortInfo', () => {
  it('converts Linux PortInfo', () => {
    expect(serialViewFromPortInfo(fixture('ch340').linux.serial![0])).toEqual({
      path: '/dev/ttyUSB0',
      vendorId: '1a86',
      productId: '7523',
      manufacturer: '1a86',
      pnpId: 'usb-1a86_USB2.0-Serial-if00-port0',
      connection: 'usb'
    })
  })

  it('converts Windows PortInfo: upper-case ids, the instance id that is not a serial number', () => {
    expect(serialViewFromPortInfo(fixture('ch340').windows!.serial![0])).toEqual({
      path: 'COM7',
      vendorId: '1a86',
      productId: '7523',
      manufacturer: 'wch.cn',
      pnpId: 'USB\\VID_1A86&PID_7523\\5&2E1C7C3B&0&2',
      locationId: 'Port_#0002.Hub_#0001',
      connection: 'usb'
    })
    expect(serialViewFromPortInfo(fixture('ftdi-ft232r').windows!.serial![0])).toMatchObject({ serialNumber: 'A50285BI', vendorId: '0403' })
  })

  it('converts macOS PortInfo and reads its locationId as bus-ports', () => {
    const view = serialViewFromPortInfo(fixture('ftdi-ft232r').darwin!.serial![0])!
    expect(view).toMatchObject({ path: '/dev/tty.usbserial-A50285BI', serialNumber: 'A50285BI', locationId: '14300000', connection: 'usb' })
    expect(serialLocation(view)).toBe('14-3')
    expect(serialLocation({ path: 'x', locationId: '14120000', connection: 'usb' })).toBe('14-1.2')
    expect(serialLocation({ path: 'x', locationId: '00100000', connection: 'usb' })).toBe('0-1')
    expect(serialLocation({ path: 'x', locationId: '1-3.4', connection: 'usb' })).toBe('1-3.4')
    expect(serialLocation({ path: 'COM7', locationId: 'Port_#0002.Hub_#0001', pnpId: 'USB\\VID_1A86', connection: 'usb' })).toBeUndefined()
  })

  it('tells how a port is attached', () => {
    const connection = (info: object, virtual?: boolean) => serialViewFromPortInfo(info, { virtual })?.connection
    expect(connection({ path: '/dev/ttyS0' })).toBe('native')
    expect(connection({ path: '/dev/ttyAMA0' })).toBe('native')
    expect(connection({ path: 'COM1', pnpId: 'ACPI\\PNP0501\\0', manufacturer: '(Standard port types)' })).toBe('native')
    expect(connection({ path: '/dev/pts/3' })).toBe('virtual')
    expect(connection({ path: '/dev/tnt0' })).toBe('virtual')
    expect(connection({ path: '/tmp/ttyV0' }, true)).toBe('virtual')
    expect(connection({ path: '/dev/ttyACM0', vendorId: '2341', productId: '0043' }, true)).toBe('virtual')
    expect(connection({ path: '/dev/rfcomm0' })).toBe('bluetooth')
    expect(connection({ path: 'COM4', pnpId: 'BTHENUM\\{00001101-0000-1000-8000-00805F9B34FB}_LOCALMFG&0002\\7&1C2D3E4F&0&000000000000_00000000' })).toBe('bluetooth')
    expect(connection({ path: '/dev/tty.Bluetooth-Incoming-Port' })).toBe('bluetooth')
    expect(connection({ path: '/dev/ttyUSB0', vendorId: '1a86', productId: '7523' })).toBe('usb')
    expect(connection({ path: '/dev/ttyUSB0', vendorId: '1a86' })).toBe('unknown')
  })

  it('keeps neither id when only one is there', () => {
    expect(serialViewFromPortInfo({ path: '/dev/ttyUSB0', vendorId: '1a86' })).toEqual({ path: '/dev/ttyUSB0', connection: 'unknown' })
  })
})

describe('the converters are total', () => {
  const odd: unknown[] = [
    undefined,
    null,
    0,
    'text',
    [],
    {},
    { path: null },
    { path: 42 },
    { vendorId: null, productId: null, path: '' },
    { vendorId: '1a86', productId: '7523', path: '/dev/ttyUSB0', serialNumber: 12345, manufacturer: { x: 1 }, pnpId: [], locationId: 7 },
    { vendorId: 'xyz', productId: '0x', path: '/dev/hidraw0', usagePage: '1', interface: 'a' },
    { vendorId: 4176, productId: 1031, path: '/dev/hidraw0', bus: { a: 1 }, ports: 'oops' },
    { vendorId: 4176, productId: 1031, bus: 3, ports: [1, 'x', -2, 2.5, 4] },
    new Proxy(
      {},
      {
        get() {
          throw new Error('boom')
        }
      }
    ),
    Object.create(null)
  ]

  it('never throw', () => {
    for (const value of odd) {
      expect(() => usbViewFromDevice(value)).not.toThrow()
      expect(() => hidViewFromDevice(value)).not.toThrow()
      expect(() => serialViewFromPortInfo(value)).not.toThrow()
      expect(() => serialViewFromPortInfo(value, { virtual: true })).not.toThrow()
    }
  })

  it('keep what makes sense of odd records', () => {
    expect(serialViewFromPortInfo({ vendorId: '1a86', productId: '7523', path: '/dev/ttyUSB0', serialNumber: 12345, manufacturer: { x: 1 }, pnpId: [], locationId: 7 })).toEqual({
      path: '/dev/ttyUSB0',
      vendorId: '1a86',
      productId: '7523',
      serialNumber: '12345',
      connection: 'usb'
    })
    expect(usbViewFromDevice({ vendorId: 4176, productId: 1031, bus: 3, ports: [1, 'x', -2, 2.5, 4] })).toEqual({ vendorId: '1050', productId: '0407', location: '3-1.4' })
    expect(usbViewFromDevice({ vendorId: '0x1050', productId: '0407', manufacturerName: 'Yubico\0\0', productName: '   ' })).toEqual({
      vendorId: '1050',
      productId: '0407',
      manufacturer: 'Yubico'
    })
  })
})
