import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseUsbIds, resetUsbIdsCache, resolveUsbIdsFile, usbIds, USB_IDS_ENV } from '../../../src/main/devices/usb-ids'

const BUNDLED = join(__dirname, '..', '..', '..', 'resources', 'usb-ids', 'usb.ids')

afterEach(() => resetUsbIdsCache())

describe('usbIds (the bundled usb.ids)', () => {
  it('is found beside the app without being told where', () => {
    expect(resolveUsbIdsFile({})).toBe(BUNDLED)
    expect(usbIds().info().file).toBe(BUNDLED)
  })

  it('names known vendors and products', () => {
    const ids = usbIds()
    expect(ids.vendor('2341')).toBe('Arduino SA')
    expect(ids.product('2341', '0043')).toBe('Uno R3 (CDC ACM)')
    expect(ids.vendor('0403')).toBe('Future Technology Devices International, Ltd')
    expect(ids.product('0403', '6001')).toBe('FT232 Serial (UART) IC')
    expect(ids.vendor(0x10c4)).toBe('Silicon Labs')
    expect(ids.product(0x10c4, 0xea60)).toBe('CP210x UART Bridge')
    expect(ids.product('0x1A86', '7523')).toBe('CH340 serial converter')
    expect(ids.vendor('1a86')).toBe('QinHeng Electronics')
  })

  it('knows nothing of what it does not list, and of bad ids', () => {
    const ids = usbIds()
    expect(ids.vendor('303a')).toBeUndefined() // Espressif: not in this snapshot (the board table names it)
    expect(ids.product('2341', 'fffe')).toBeUndefined()
    expect(ids.vendor(undefined)).toBeUndefined()
    expect(ids.product('zz', null)).toBeUndefined()
  })

  it('reads only the device list: the class section after it is not taken for vendors', () => {
    const info = usbIds().info()
    expect(info.version).toMatch(/^\d{4}\.\d{2}\.\d{2}$/)
    expect(info.vendors).toBeGreaterThan(3000)
    expect(info.products).toBeGreaterThan(15000)
    // "C 03  Human Interface Device" / "HID 01  Button" must not have become vendors.
    expect(usbIds().vendor('0003')).toBe('Club Mac')
  })

  it('parses once and quickly', () => {
    const ids = usbIds()
    ids.vendor('2341')
    const first = ids.info()
    ids.product('0403', '6001')
    expect(ids.info().parseMs).toBe(first.parseMs) // cached, not parsed again
    expect(first.parseMs).toBeLessThan(500)
    expect(usbIds()).toBe(ids)
  })

  it('stays the same version as the README says', () => {
    const readme = readFileSync(join(BUNDLED, '..', 'README.md'), 'utf8')
    expect(readme).toContain(`Version: ${usbIds().info().version}`)
  })
})

describe('usbIds without its file', () => {
  it('gives no names and does not throw', () => {
    const ids = usbIds(join(tmpdir(), 'no-such-dir', 'usb.ids'))
    expect(ids.vendor('2341')).toBeUndefined()
    expect(ids.product('2341', '0043')).toBeUndefined()
    expect(ids.info()).toMatchObject({ vendors: 0, products: 0 })
    expect(ids.info().error).toMatch(/could not be read/)
  })

  it('says so when nothing is found', () => {
    const empty = mkdtempSync(join(tmpdir(), 'usb-ids-'))
    expect(resolveUsbIdsFile({}, join(empty, 'a', 'b'))).toBeUndefined()
  })

  it('takes an override from the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'usb-ids-'))
    const file = join(dir, 'usb.ids')
    writeFileSync(file, '# Version: 2000.01.01\n2341  Arduino SA\n\t0043  Uno R3 (CDC ACM)\n')
    expect(resolveUsbIdsFile({ [USB_IDS_ENV]: file })).toBe(file)
    expect(usbIds(file).product('2341', '0043')).toBe('Uno R3 (CDC ACM)')
    expect(usbIds(file).info()).toMatchObject({ version: '2000.01.01', vendors: 1, products: 1 })
  })
})

describe('parseUsbIds', () => {
  it('skips comments and interface lines, takes CRLF files, stops at the first other section', () => {
    const text = [
      '# Version: 2024.01.01',
      '1234  Vendor One',
      '\t0001  Product A',
      '\t\t00  Interface (ignored)',
      '# a comment',
      '\t0002  Product B\r',
      '5678  Vendor Two\r',
      '\tzzzz  not an id',
      '',
      'C 00  (Defined at Interface level)',
      '9999  After the device list'
    ].join('\n')
    const parsed = parseUsbIds(text)
    expect([...parsed.vendors]).toEqual([
      ['1234', 'Vendor One'],
      ['5678', 'Vendor Two']
    ])
    expect([...parsed.products]).toEqual([
      ['12340001', 'Product A'],
      ['12340002', 'Product B']
    ])
    expect(parsed.info.version).toBe('2024.01.01')
  })

  it('takes odd text', () => {
    expect(parseUsbIds('').vendors.size).toBe(0)
    expect(parseUsbIds('\t0001  orphan product\n').products.size).toBe(0)
  })
})
