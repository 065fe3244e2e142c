import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { mergeViews } from '../../../src/main/devices/merge'
import { usbIds } from '../../../src/main/devices/usb-ids'
import { hidViewFromDevice, serialViewFromPortInfo, usbViewFromDevice, type SerialView, type UsbView } from '../../../src/main/devices/views'
import { DeviceSchema, type Device } from '../../../src/shared/bridge/devices'
import { fixture, machine, toViews, type RawMachine } from './fixtures'

const merged = (raw: RawMachine): Device[] => {
  const devices = mergeViews(toViews(raw))
  for (const device of devices) expect(DeviceSchema.parse(device)).toEqual(device)
  return devices
}
const one = (raw: RawMachine): Device => {
  const devices = merged(raw)
  expect(devices).toHaveLength(1)
  return devices[0]!
}

describe('mergeViews: each recorded device on Linux', () => {
  it('ESP32-S3 on its native USB: the USB record and the port, by serial number', () => {
    expect(one(fixture('esp32-s3').linux)).toEqual({
      id: 'usb:303a:1001:F4:12:FA:4D:3B:C8',
      kinds: ['serial', 'usb'],
      name: 'Espressif ESP32-S3/C3/C6 (USB JTAG/serial)',
      vendorName: 'Espressif',
      productName: 'USB JTAG/serial debug unit',
      vendorId: '303a',
      productId: '1001',
      serialNumber: 'F4:12:FA:4D:3B:C8',
      ports: ['/dev/ttyACM0'],
      connection: 'usb',
      board: 'ESP32-S3/C3/C6 (native USB JTAG/serial)'
    })
  })

  it('CH340 adapter without a serial number: one device by its ids, named "board unknown"', () => {
    expect(one(fixture('ch340').linux)).toEqual({
      id: 'usb:1a86:7523@1-3',
      kinds: ['serial', 'usb'],
      name: 'CH340 USB-serial adapter (QinHeng Electronics) — board unknown',
      vendorName: 'QinHeng Electronics',
      productName: 'USB2.0-Serial',
      vendorId: '1a86',
      productId: '7523',
      ports: ['/dev/ttyUSB0'],
      connection: 'usb',
      board: 'CH340 USB-serial adapter — board unknown',
      nameText: { key: 'devices.name.adapter', params: { adapter: 'CH340 USB-serial adapter', vendor: 'QinHeng Electronics' } },
      boardText: { key: 'devices.board.adapter', params: { adapter: 'CH340 USB-serial adapter' } }
    })
  })

  it('FTDI cable with serial number A50285BI', () => {
    expect(one(fixture('ftdi-ft232r').linux)).toMatchObject({
      id: 'usb:0403:6001:A50285BI',
      kinds: ['serial', 'usb'],
      name: 'FT232R USB-serial adapter (Future Technology Devices International, Ltd) — board unknown',
      vendorName: 'FTDI',
      productName: 'FT232R USB UART',
      serialNumber: 'A50285BI',
      ports: ['/dev/ttyUSB1'],
      board: 'FT232R USB-serial adapter — board unknown'
    })
  })

  it('Raspberry Pi Pico running MicroPython', () => {
    expect(one(fixture('pico-micropython').linux)).toMatchObject({
      id: 'usb:2e8a:0005:e6614103e7452d2f',
      kinds: ['serial', 'usb'],
      name: 'Raspberry Pi Pico (MicroPython)',
      board: 'RP2040/RP2350 board running MicroPython',
      vendorName: 'MicroPython',
      productName: 'Board in FS mode',
      ports: ['/dev/ttyACM1']
    })
  })

  it('YubiKey 5 NFC: its USB record and both HID interfaces are one device', () => {
    const yubikey = one(fixture('yubikey-5-nfc').linux)
    expect(yubikey).toEqual({
      id: 'usb:1050:0407@3-2',
      kinds: ['hid', 'usb'],
      name: 'YubiKey 4/5 (OTP+FIDO+CCID)',
      vendorName: 'Yubico',
      productName: 'YubiKey OTP+FIDO+CCID',
      vendorId: '1050',
      productId: '0407',
      ports: [],
      hidPaths: ['/dev/hidraw2', '/dev/hidraw3'],
      connection: 'usb'
    })
    expect(yubikey.board).toBeUndefined() // a security key is not a board
  })

  it('a composite HID device (Logitech receiver, three interfaces, collections sharing paths) is one device', () => {
    expect(one(fixture('logitech-unifying').linux)).toMatchObject({
      id: 'usb:046d:c52b@3-1',
      kinds: ['hid', 'usb'],
      name: 'Logitech USB Receiver',
      hidPaths: ['/dev/hidraw0', '/dev/hidraw1', '/dev/hidraw4'],
      ports: []
    })
  })

  it('a backend alone is enough (HID only, serial only)', () => {
    const yubikey = fixture('yubikey-5-nfc').linux
    expect(one({ hid: yubikey.hid })).toMatchObject({ id: 'hid:/dev/hidraw2', kinds: ['hid'], name: 'YubiKey 4/5 (OTP+FIDO+CCID)', connection: 'usb' })
    expect(one({ serial: fixture('ch340').linux.serial })).toMatchObject({ id: 'serial:/dev/ttyUSB0', kinds: ['serial'], vendorName: 'QinHeng Electronics' })
    expect(one({ serial: fixture('esp32-s3').linux.serial })).toMatchObject({ id: 'usb:303a:1001:F4:12:FA:4D:3B:C8', kinds: ['serial'] })
  })
})

describe('mergeViews: a whole Linux machine', () => {
  const devices = merged(machine('machine-linux'))

  it('lists each physical device once, boards first, then adapters, then the rest, then bare ports', () => {
    expect(devices.map((device) => [device.name, device.kinds.join('+'), device.ports.join(',')])).toEqual([
      ['Espressif ESP32-S3/C3/C6 (USB JTAG/serial)', 'serial+usb', '/dev/ttyACM0'],
      ['Raspberry Pi Pico (MicroPython)', 'serial+usb', '/dev/ttyACM1'],
      ['CH340 USB-serial adapter (QinHeng Electronics) — board unknown', 'serial+usb', '/dev/ttyUSB0'],
      ['FT232R USB-serial adapter (Future Technology Devices International, Ltd) — board unknown', 'serial+usb', '/dev/ttyUSB1'],
      ['GenesysLogic USB2.1 Hub', 'usb', ''],
      ['Logitech USB Receiver', 'hid+usb', ''],
      ['YubiKey 4/5 (OTP+FIDO+CCID)', 'hid+usb', ''],
      ['Serial port /dev/ttyS0', 'serial', '/dev/ttyS0']
    ])
  })

  it('gives unique, stable ids', () => {
    const ids = devices.map((device) => device.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toContain('serial:/dev/ttyS0')
    expect(devices.find((device) => device.id === 'serial:/dev/ttyS0')?.connection).toBe('native')
    // The same input, shuffled, gives the same list.
    const raw = machine('machine-linux')
    const shuffled = { usb: [...raw.usb!].reverse(), hid: [...raw.hid!].reverse(), serial: [...raw.serial!].reverse() }
    expect(merged(shuffled)).toEqual(devices)
  })

  it('adds a port the user added as a virtual one, at the end', () => {
    const views = toViews(machine('machine-linux'))
    views.serial.push(serialViewFromPortInfo({ path: '/dev/pts/3' }, { virtual: true })!)
    const all = mergeViews(views)
    expect(all.at(-1)).toEqual({ id: 'serial:/dev/pts/3', kinds: ['serial'], name: 'Virtual port /dev/pts/3', nameText: { key: 'devices.name.port.virtual', params: { path: '/dev/pts/3' } }, ports: ['/dev/pts/3'], connection: 'virtual' })
  })
})

describe('mergeViews: identical devices', () => {
  it('two CH340 adapters without serial numbers stay two devices', () => {
    const devices = merged(machine('ch340-pair-linux'))
    expect(devices).toHaveLength(2)
    expect(devices.map((device) => device.ports)).toEqual([['/dev/ttyUSB0'], ['/dev/ttyUSB1']])
    expect(devices.map((device) => device.kinds)).toEqual([
      ['serial', 'usb'],
      ['serial', 'usb']
    ])
    // Which USB record goes with which port is a guess: the ids do not claim a location.
    expect(devices.map((device) => device.id)).toEqual(['serial:/dev/ttyUSB0', 'serial:/dev/ttyUSB1'])
  })

  it('two CH340s seen by serialport only: two devices', () => {
    const pair = machine('ch340-pair-linux')
    expect(merged({ serial: pair.serial }).map((device) => device.id)).toEqual(['serial:/dev/ttyUSB0', 'serial:/dev/ttyUSB1'])
  })

  it('two CH340s, but only one has its port listed: nothing is guessed', () => {
    const pair = machine('ch340-pair-linux')
    const devices = merged({ usb: pair.usb, serial: pair.serial!.slice(0, 1) })
    expect(devices).toHaveLength(3)
    expect(devices.map((device) => device.id).sort()).toEqual(['serial:/dev/ttyUSB0', 'usb:1a86:7523@1-3', 'usb:1a86:7523@1-4'])
  })

  it('two CH340s with their USB locations known on both sides (DeskClaw sysfs lister): matched by location', () => {
    const pair = machine('ch340-pair-linux')
    const serial = [
      { ...(pair.serial![0] as object), path: '/dev/ttyUSB0', locationId: '1-4' },
      { ...(pair.serial![1] as object), path: '/dev/ttyUSB1', locationId: '1-3' }
    ]
    const devices = merged({ usb: pair.usb, serial })
    expect(devices.map((device) => [device.id, device.ports[0]])).toEqual([
      ['usb:1a86:7523@1-3', '/dev/ttyUSB1'],
      ['usb:1a86:7523@1-4', '/dev/ttyUSB0']
    ])
  })

  it('boards that all report the same serial number are not merged by it', () => {
    const usb: UsbView[] = [
      { vendorId: '1a86', productId: '55d4', serialNumber: '0001', location: '1-3' },
      { vendorId: '1a86', productId: '55d4', serialNumber: '0001', location: '1-4' }
    ]
    const serial: SerialView[] = [
      { path: '/dev/ttyACM0', vendorId: '1a86', productId: '55d4', serialNumber: '0001', connection: 'usb' },
      { path: '/dev/ttyACM1', vendorId: '1a86', productId: '55d4', serialNumber: '0001', connection: 'usb' }
    ]
    const devices = mergeViews({ usb, hid: [], serial })
    expect(devices).toHaveLength(2)
    expect(devices.map((device) => device.ports)).toEqual([['/dev/ttyACM0'], ['/dev/ttyACM1']])
    expect(devices.every((device) => device.name === 'CH9102 USB-serial adapter (QinHeng Electronics) — board unknown')).toBe(true)
  })

  it('same made-up serial number, no USB backend: the same by-id name tells two devices', () => {
    const port = (path: string) => serialViewFromPortInfo({ path, vendorId: '1a86', productId: '55d4', serialNumber: '0001', pnpId: 'usb-1a86_USB_Single_Serial_0001-if00' })!
    const devices = mergeViews({ usb: [], hid: [], serial: [port('/dev/ttyACM1'), port('/dev/ttyACM0')] })
    expect(devices.map((device) => [device.id, device.ports])).toEqual([
      ['serial:/dev/ttyACM0', ['/dev/ttyACM0']],
      ['serial:/dev/ttyACM1', ['/dev/ttyACM1']]
    ])
  })

  it('a dual-port adapter (one serial number, two ports) is one device', () => {
    const serial = ['/dev/ttyUSB3', '/dev/ttyUSB2'].map((path) => serialViewFromPortInfo({ path, vendorId: '0403', productId: '6010', serialNumber: 'FT2ABCDE', manufacturer: 'FTDI' })!)
    const usb = [usbViewFromDevice({ vendorId: 0x403, productId: 0x6010, serialNumber: 'FT2ABCDE', manufacturerName: 'FTDI', productName: 'Dual RS232-HS', bus: '001', ports: [5] })!]
    expect(mergeViews({ usb, hid: [], serial })).toMatchObject([
      { id: 'usb:0403:6010:FT2ABCDE', kinds: ['serial', 'usb'], ports: ['/dev/ttyUSB2', '/dev/ttyUSB3'], name: 'FT2232 dual USB-serial adapter (Future Technology Devices International, Ltd) — board unknown' }
    ])
  })

  it('two identical HID devices without serial numbers stay two (each interface on two paths)', () => {
    const keyboard = (path: string, iface: number) => hidViewFromDevice({ vendorId: 0x413c, productId: 0x2113, path, interface: iface, manufacturer: 'Dell', product: 'Dell KB216 Wired Keyboard', usagePage: 1, usage: 6 })!
    const hid = [keyboard('/dev/hidraw0', 0), keyboard('/dev/hidraw1', 1), keyboard('/dev/hidraw5', 0), keyboard('/dev/hidraw6', 1)]
    const devices = mergeViews({ usb: [], hid, serial: [] })
    expect(devices.map((device) => device.hidPaths)).toEqual([
      ['/dev/hidraw0', '/dev/hidraw1'],
      ['/dev/hidraw5', '/dev/hidraw6']
    ])
  })
})

describe('mergeViews: Windows and macOS shapes', () => {
  it('Windows CH340 on COM7: the instance id is not taken for a serial number', () => {
    const device = one(fixture('ch340').windows!)
    expect(device).toEqual({
      id: 'serial:COM7',
      kinds: ['serial'],
      name: 'CH340 USB-serial adapter (QinHeng Electronics) — board unknown',
      vendorName: 'QinHeng Electronics',
      productName: 'CH340 serial converter',
      vendorId: '1a86',
      productId: '7523',
      ports: ['COM7'],
      connection: 'usb',
      board: 'CH340 USB-serial adapter — board unknown',
      nameText: { key: 'devices.name.adapter', params: { adapter: 'CH340 USB-serial adapter', vendor: 'QinHeng Electronics' } },
      boardText: { key: 'devices.board.adapter', params: { adapter: 'CH340 USB-serial adapter' } }
    })
  })

  it('Windows FTDI and ESP32: the serial number from the instance id; "Microsoft" is the driver, not the vendor', () => {
    expect(one(fixture('ftdi-ft232r').windows!)).toMatchObject({ id: 'usb:0403:6001:A50285BI', ports: ['COM3'], vendorName: 'Future Technology Devices International, Ltd' })
    const esp = one(fixture('esp32-s3').windows!)
    expect(esp).toMatchObject({ id: 'usb:303a:1001:F4:12:FA:4D:3B:C8', ports: ['COM5'], name: 'Espressif ESP32-S3/C3/C6 (USB JTAG/serial)' })
    expect(esp.vendorName).toBe('Espressif') // the table's, not "Microsoft"
  })

  it('Windows YubiKey HID paths', () => {
    expect(one(fixture('yubikey-5-nfc').windows!)).toMatchObject({ kinds: ['hid'], connection: 'usb', hidPaths: expect.arrayContaining([expect.stringMatching(/MI_00/), expect.stringMatching(/MI_01/)]) })
  })

  it('macOS: the port and the USB record meet by location when there is no serial number', () => {
    const ch340 = fixture('ch340').darwin!
    expect(one(ch340)).toMatchObject({ id: 'usb:1a86:7523@14-1', kinds: ['serial', 'usb'], ports: ['/dev/tty.usbserial-1410'], productName: 'USB Serial' })
    // Two of them on different ports: still each with its own port, by location.
    const second = { usb: [{ ...(ch340.usb![0] as object), ports: [4] }], serial: [{ ...(ch340.serial![0] as object), path: '/dev/tty.usbserial-1440', locationId: '14400000' }] }
    const devices = merged({ usb: [...ch340.usb!, ...second.usb], serial: [...second.serial, ...ch340.serial!] })
    expect(devices.map((device) => [device.id, device.ports[0]])).toEqual([
      ['usb:1a86:7523@14-1', '/dev/tty.usbserial-1410'],
      ['usb:1a86:7523@14-4', '/dev/tty.usbserial-1440']
    ])
  })

  it('macOS FTDI and ESP32', () => {
    expect(one(fixture('ftdi-ft232r').darwin!)).toMatchObject({ id: 'usb:0403:6001:A50285BI', ports: ['/dev/tty.usbserial-A50285BI'], kinds: ['serial', 'usb'] })
    expect(one(fixture('esp32-s3').darwin!)).toMatchObject({ ports: ['/dev/tty.usbmodem14201'], kinds: ['serial', 'usb'] })
  })
})

describe('mergeViews: odd input', () => {
  it('never throws', () => {
    const odd: unknown[] = [undefined, null, {}, { usb: null }, { usb: [null, 5, 'x'], hid: 'x', serial: {} }, { usb: [{}], hid: [{}], serial: [{}] }]
    for (const views of odd) expect(() => mergeViews(views as never)).not.toThrow()
    expect(mergeViews({})).toEqual([])
  })

  it('odd raw records through the converters give a valid list', () => {
    const raw: RawMachine = {
      usb: [null, { vendorId: '1a86', productId: 29987, bus: 1, ports: [3] }, { vendorId: 'nope' }],
      hid: [{ vendorId: '4176', productId: 1031, path: '/dev/hidraw9' }, { path: '/dev/hidraw8' }],
      serial: [{ path: '/dev/ttyUSB0', vendorId: '0x1A86', productId: '7523', serialNumber: null }, { vendorId: '1a86' }, 7]
    }
    const devices = merged(raw)
    expect(devices.map((device) => device.id)).toEqual(['usb:1a86:7523@1-3', 'hid:/dev/hidraw9'])
    expect(devices[1]).toMatchObject({ vendorId: '4176', name: 'Unknown device (4176:0407)' }) // "4176" as a string is hex
  })

  it('works without usb.ids', () => {
    const devices = mergeViews(toViews(machine('machine-linux')), { ids: usbIds(join(tmpdir(), 'missing', 'usb.ids')) })
    expect(devices.map((device) => device.name)).toContain('CH340 USB-serial adapter (WCH) — board unknown')
    expect(devices.map((device) => device.name)).toContain('Logitech USB Receiver')
  })
})

describe('mergeViews: ids that would collide', () => {
  it('get a #n suffix (two identical USB devices without serial number or location)', () => {
    const usb: UsbView[] = [
      { vendorId: '046d', productId: 'c077' },
      { vendorId: '046d', productId: 'c077' }
    ]
    expect(mergeViews({ usb, hid: [], serial: [] }).map((device) => device.id)).toEqual(['usb:046d:c077', 'usb:046d:c077#2'])
  })
})
