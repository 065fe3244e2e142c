/**
 * Issue 22, item 5: a device name main frames with words ("Serial port /dev/ttyS0", "Unknown
 * device", "… — board unknown") also comes as a message code the Devices panel says in the UI's
 * language; the names inside (usb.ids, the device's own strings, the board table) are params.
 * Over every kind of name nameDevice makes: the code exists in both dictionaries, the English
 * dictionary gives back exactly the English name, and the Chinese one keeps the names and is Chinese.
 */
import { describe, expect, it } from 'vitest'
import { nameDevice, type NameParts } from '../../../src/main/devices'
import { dictionaries } from '../../../src/renderer/src/i18n'

const fill = (template: string, params: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `{${name}}`)

/** One input per way nameDevice names a device. */
const CASES: Array<[string, NameParts, boolean]> = [
  ['a serial port', { ports: ['/dev/ttyS0'] }, true],
  ['a virtual port', { ports: ['/dev/pts/3'] }, true],
  ['a Bluetooth port', { ports: ['/dev/rfcomm0'], connection: 'bluetooth' }, true],
  ['nothing known', {}, true],
  ['ids only', { vendorId: 'f00d', productId: '0001' }, true],
  ['a known vendor, unknown product', { vendorId: '046d', productId: 'fffe' }, true],
  ['a USB-serial adapter', { vendorId: '1a86', productId: '7523' }, true],
  ['a product from usb.ids', { vendorId: '046d', productId: 'c52b' }, false],
  ['a board from the table', { vendorId: '303a', productId: '1001' }, false],
  ['the device strings', { manufacturer: 'Acme', product: 'Widget' }, false]
]

describe('device names as message codes', () => {
  for (const [what, parts, framed] of CASES) {
    it(`${what}: ${framed ? 'a code in both languages' : 'product names only, no code'}`, () => {
      const naming = nameDevice(parts)
      if (!framed) {
        expect(naming.nameText).toBeUndefined()
        return
      }
      const text = naming.nameText!
      expect(Object.hasOwn(dictionaries.en, text.key), text.key).toBe(true)
      expect(Object.hasOwn(dictionaries['zh-CN'], text.key), text.key).toBe(true)
      const en = dictionaries.en as Record<string, string>
      const zh = dictionaries['zh-CN'] as Record<string, string>
      expect(fill(en[text.key]!, text.params)).toBe(naming.name)
      const chinese = fill(zh[text.key]!, text.params)
      expect(chinese).toMatch(/\p{Script=Han}/u)
      for (const value of Object.values(text.params ?? {})) expect(chinese).toContain(value)
      if (naming.boardText) {
        expect(fill(en[naming.boardText.key]!, naming.boardText.params)).toBe(naming.board)
        expect(fill(zh[naming.boardText.key]!, naming.boardText.params)).toMatch(/\p{Script=Han}/u)
      }
    })
  }
})
