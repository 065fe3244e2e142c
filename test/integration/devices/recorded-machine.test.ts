import { describe, expect, it } from 'vitest'
import { DeviceService, hidBackend, serialBackend, usbBackend } from '../../../src/main/devices'
import { machine } from '../../unit/devices/fixtures'

// The descriptors of a whole machine (test/fixtures/devices) go through the same backends,
// converters, merge and naming as live devices do: only the library call is replaced.
describe('a machine with an ESP32-S3, a CH340, an FTDI cable, a Pico and a YubiKey', () => {
  it('lists each physical device once, named as the board table and usb.ids say', async () => {
    const raw = machine('machine-linux')
    const service = new DeviceService({
      settings: () => ({ serialPorts: [] }),
      backends: {
        usb: usbBackend('linux', { list: async () => raw.usb ?? [] }),
        hid: hidBackend('linux', { list: async () => raw.hid ?? [] }),
        serial: serialBackend({ extraPorts: () => [], platform: 'linux', list: async () => raw.serial ?? [] })
      }
    })
    const { devices, backends } = await service.list()
    expect(backends.every((b) => b.available)).toBe(true)
    const byIds = (vid: string, pid: string) => devices.filter((d) => d.vendorId === vid && d.productId === pid)
    const esp = byIds('303a', '1001')
    expect(esp).toHaveLength(1)
    expect(esp[0]).toMatchObject({ kinds: ['serial', 'usb'], ports: ['/dev/ttyACM0'], connection: 'usb' })
    expect(esp[0]!.name).toMatch(/ESP32-S3/)
    const ch340 = byIds('1a86', '7523')
    expect(ch340).toHaveLength(1)
    expect(ch340[0]!.name).toMatch(/CH340/)
    expect(ch340[0]!.board ?? ch340[0]!.name).toMatch(/board unknown/)
    const ftdi = byIds('0403', '6001')[0]!
    expect(ftdi).toMatchObject({ serialNumber: 'A50285BI' })
    expect(ftdi.name).toMatch(/FT232|FTDI/)
    const pico = byIds('2e8a', '0005')[0]!
    expect(pico.name).toMatch(/Pico|MicroPython|RP2040/)
    const yubikey = byIds('1050', '0407')
    expect(yubikey).toHaveLength(1)
    expect(yubikey[0]).toMatchObject({ kinds: ['hid', 'usb'] })
    expect(yubikey[0]!.name).toMatch(/YubiKey/)
    expect(yubikey[0]!.hidPaths).toHaveLength(2)
    await service.shutdown()
  })
})
