import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { BOARDS, lookupBoard } from '../../../src/main/devices/boards'
import { nameDevice, shortVendor } from '../../../src/main/devices/names'
import { resetUsbIdsCache, usbIds, type UsbIds } from '../../../src/main/devices/usb-ids'

afterEach(() => resetUsbIdsCache())

const noIds = (): UsbIds => usbIds(join(tmpdir(), 'no-such-dir', 'usb.ids'))

describe('nameDevice', () => {
  it('names boards from the table first (exact vid+pid)', () => {
    expect(nameDevice({ vendorId: '303a', productId: '1001', manufacturer: 'Espressif', product: 'USB JTAG/serial debug unit' })).toEqual({
      name: 'Espressif ESP32-S3/C3/C6 (USB JTAG/serial)',
      vendorName: 'Espressif',
      productName: 'USB JTAG/serial debug unit',
      board: 'ESP32-S3/C3/C6 (native USB JTAG/serial)'
    })
    expect(nameDevice({ vendorId: '2341', productId: '0043' })).toEqual({
      name: 'Arduino Uno',
      vendorName: 'Arduino SA',
      productName: 'Uno R3 (CDC ACM)',
      board: 'Arduino Uno (ATmega328P)'
    })
    expect(nameDevice({ vendorId: '2a03', productId: '0043' }).name).toBe('Arduino Uno')
    expect(nameDevice({ vendorId: '2341', productId: '8036' }).name).toBe('Arduino Leonardo')
    expect(nameDevice({ vendorId: '2e8a', productId: '0005' }).board).toBe('RP2040/RP2350 board running MicroPython')
    expect(nameDevice({ vendorId: '16c0', productId: '0483' }).name).toBe('Teensy (USB serial)')
    expect(nameDevice({ vendorId: '0483', productId: '5740' }).name).toBe('STM32 (USB virtual COM port)')
  })

  it('says "board unknown" for USB-serial bridge chips, with usb.ids vendor name', () => {
    expect(nameDevice({ vendorId: '1a86', productId: '7523', manufacturer: '1a86', product: 'USB2.0-Serial' })).toEqual({
      name: 'CH340 USB-serial adapter (QinHeng Electronics) — board unknown',
      vendorName: 'QinHeng Electronics',
      productName: 'USB2.0-Serial',
      board: 'CH340 USB-serial adapter — board unknown',
      nameText: { key: 'devices.name.adapter', params: { adapter: 'CH340 USB-serial adapter', vendor: 'QinHeng Electronics' } },
      boardText: { key: 'devices.board.adapter', params: { adapter: 'CH340 USB-serial adapter' } }
    })
    expect(nameDevice({ vendorId: '1a86', productId: '55d4' }).name).toBe('CH9102 USB-serial adapter (QinHeng Electronics) — board unknown')
    expect(nameDevice({ vendorId: '10c4', productId: 'ea60' }).name).toBe('CP210x USB-serial adapter (Silicon Labs) — board unknown')
    expect(nameDevice({ vendorId: '067b', productId: '2303' }).name).toBe('PL2303 USB-serial adapter (Prolific Technology, Inc.) — board unknown')
    // Without usb.ids, the table's own vendor.
    expect(nameDevice({ vendorId: '1a86', productId: '7523' }, noIds()).name).toBe('CH340 USB-serial adapter (WCH) — board unknown')
  })

  it('names a vendor-wide board entry by the device strings or usb.ids when they name the model', () => {
    expect(nameDevice({ vendorId: '239a', productId: '8022', manufacturer: 'Adafruit Industries LLC', product: 'Feather M4 Express' })).toEqual({
      name: 'Adafruit Feather M4 Express',
      vendorName: 'Adafruit Industries LLC',
      productName: 'Feather M4 Express',
      board: 'Adafruit board (the model is in its product string)'
    })
    expect(nameDevice({ vendorId: '239a', productId: '801e' }).name).toBe('Adafruit Trinket M0') // usb.ids
    expect(nameDevice({ vendorId: '239a', productId: '9999' }).name).toBe('Adafruit board')
    expect(nameDevice({ vendorId: '303a', productId: '4001', manufacturer: 'Espressif Systems', product: 'Espressif Device' }).name).toBe('Espressif Device')
    expect(nameDevice({ vendorId: '303a', productId: '4001' }).board).toBe('ESP32-S2/S3 (native USB, TinyUSB)')
  })

  it('then the device strings, then usb.ids, then the vendor, then the ids', () => {
    expect(nameDevice({ vendorId: '046d', productId: 'c52b', manufacturer: 'Logitech', product: 'USB Receiver' }).name).toBe('Logitech USB Receiver')
    expect(nameDevice({ vendorId: '046d', productId: 'c52b' })).toEqual({ name: 'Logitech Unifying Receiver', vendorName: 'Logitech, Inc.', productName: 'Unifying Receiver' })
    expect(nameDevice({ vendorId: '046d', productId: 'fffe' })).toEqual({
      name: 'Logitech, unknown product (046d:fffe)',
      nameText: { key: 'devices.name.unknownProduct', params: { vendor: 'Logitech', ids: '046d:fffe' } },
      vendorName: 'Logitech, Inc.'
    })
    expect(nameDevice({ vendorId: 'f00d', productId: '0001' })).toEqual({ name: 'Unknown device (f00d:0001)', nameText: { key: 'devices.name.unknownIds', params: { ids: 'f00d:0001' } } })
    expect(nameDevice({ vendorId: '046d', productId: 'c52b' }, noIds())).toEqual({ name: 'Unknown device (046d:c52b)', nameText: { key: 'devices.name.unknownIds', params: { ids: '046d:c52b' } } })
    // The product already says who made it.
    expect(nameDevice({ vendorId: 'f00d', productId: '0001', manufacturer: 'Raspberry Pi', product: 'Raspberry Pi Pico' }).name).toBe('Raspberry Pi Pico')
  })

  it('ignores device strings that say nothing', () => {
    // udev's manufacturer when the device has none is the vendor id.
    expect(nameDevice({ vendorId: '0403', productId: '6011', manufacturer: '0403' }).vendorName).toBe('Future Technology Devices International, Ltd')
    expect(nameDevice({ vendorId: 'f00d', productId: '0001', manufacturer: '  ', product: '\0\0' }).name).toBe('Unknown device (f00d:0001)')
    expect(nameDevice({ ports: ['COM1'], manufacturer: '(Standard port types)', connection: 'native' })).toEqual({ name: 'Serial port COM1', nameText: { key: 'devices.name.port.serial', params: { path: 'COM1' } } })
  })

  it('names ports without ids by their path', () => {
    expect(nameDevice({ ports: ['/dev/ttyS0'] }).name).toBe('Serial port /dev/ttyS0')
    expect(nameDevice({ ports: ['/dev/pts/3'] }).name).toBe('Virtual port /dev/pts/3')
    expect(nameDevice({ ports: ['/tmp/ttyV0'], connection: 'virtual' }).name).toBe('Virtual port /tmp/ttyV0')
    expect(nameDevice({ ports: ['/dev/rfcomm0'], connection: 'bluetooth' }).name).toBe('Bluetooth serial port /dev/rfcomm0')
    expect(nameDevice({}).name).toBe('Unknown device')
    expect(nameDevice({ vendorId: '1a86', ports: ['/dev/ttyUSB0'] }).name).toBe('Serial port /dev/ttyUSB0')
  })

  it('takes ids in any form and odd input without throwing', () => {
    expect(nameDevice({ vendorId: '0x2341', productId: '0043' }).name).toBe('Arduino Uno')
    const odd = [{ vendorId: null }, { ports: [null] }, { ports: 'x' }, { manufacturer: 5 }, { vendorId: 'zz', productId: {} }] as unknown as Parameters<typeof nameDevice>[0][]
    for (const parts of odd) expect(() => nameDevice(parts)).not.toThrow()
    const throwing: UsbIds = {
      vendor: () => {
        throw new Error('x')
      },
      product: () => {
        throw new Error('x')
      },
      info: () => ({ vendors: 0, products: 0, parseMs: 0 })
    }
    expect(nameDevice({ vendorId: '046d', productId: 'c52b' }, throwing).name).toBe('Unknown device (046d:c52b)')
  })
})

describe('the board table', () => {
  it('is well-formed: lower-case 4-digit ids, no duplicate keys', () => {
    const keys = new Set<string>()
    for (const entry of BOARDS) {
      expect(entry.vendorId).toMatch(/^[0-9a-f]{4}$/)
      if (entry.productId) expect(entry.productId).toMatch(/^[0-9a-f]{4}$/)
      const key = `${entry.vendorId}:${entry.productId ?? '*'}`
      expect(keys.has(key), key).toBe(false)
      keys.add(key)
    }
  })

  it('matches exact ids before the vendor-wide entry', () => {
    expect(lookupBoard('2e8a', '0005')).toMatchObject({ exact: true, entry: { name: 'Raspberry Pi Pico (MicroPython)' } })
    expect(lookupBoard('2e8a', '1234')).toMatchObject({ exact: false, entry: { name: 'RP2040/RP2350 board' } })
    expect(lookupBoard('1a86', '1234')).toBeUndefined() // a bridge chip maker's other products are not adapters
    expect(lookupBoard(undefined, '0005')).toBeUndefined()
  })
})

describe('shortVendor', () => {
  it('drops company suffixes', () => {
    expect(shortVendor('Logitech, Inc.')).toBe('Logitech')
    expect(shortVendor('Samsung Electronics Co., Ltd')).toBe('Samsung')
    expect(shortVendor('Adafruit Industries LLC')).toBe('Adafruit')
    expect(shortVendor('Inc.')).toBe('Inc.')
  })
})
