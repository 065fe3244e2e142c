import { Key } from '@nut-tree-fork/shared'
import { describe, expect, it } from 'vitest'
import { KeyComboError, keyNameTable, parseKeyCombo } from '../../src/main/desktop/keys'

// Every key name a profile or the model may write reaches a real nut-js key, on every OS; anything
// else is refused with a message naming the part (docs/desktop.md, "Key names"). No display needed.
const PLATFORMS: NodeJS.Platform[] = ['linux', 'win32', 'darwin']

describe('key names as users read them', () => {
  for (const platform of PLATFORMS) {
    it(`every name in the table is a nut-js key on ${platform}, alone and with modifiers`, () => {
      const table = keyNameTable(platform)
      expect(table.length).toBeGreaterThan(100)
      for (const { name, driverKey, modifier } of table) {
        expect(Key[driverKey as keyof typeof Key], `${name} → ${driverKey}`).toBeTypeOf('number')
        expect(parseKeyCombo(name, platform)).toEqual([driverKey])
        expect(parseKeyCombo(name.toUpperCase(), platform)).toEqual([driverKey])
        if (!modifier) expect(parseKeyCombo(`ctrl+shift+${name}`, platform)).toEqual(['LeftControl', 'LeftShift', driverKey])
      }
    })
  }

  it('enter is the main Return key everywhere; kpenter is the keypad', () => {
    for (const platform of PLATFORMS) {
      expect(parseKeyCombo('enter', platform)).toEqual(['Return'])
      expect(parseKeyCombo('Return', platform)).toEqual(['Return'])
      expect(parseKeyCombo('ctrl+enter', platform)).toEqual(['LeftControl', 'Return'])
      expect(parseKeyCombo('kpenter', platform)).toEqual(['Enter'])
    }
    expect(parseKeyCombo('mod+enter', 'darwin')).toEqual(['LeftCmd', 'Return'])
  })

  it('refuses unknown names and garbage with a message that names the part', () => {
    const garbage = ['', '+', 'ctrl+', 'entr', 'ctrl+banana', 'a+b', 'f25', 'kp10', '回车', 'ctrl++x', '\u0000', 'ctrl+shift+alt', ' ', 'enter enter']
    for (const combo of garbage) {
      let error: unknown
      try {
        const keys = parseKeyCombo(combo, 'linux')
        // Modifiers alone are a combination (ctrl+shift+alt presses three modifiers).
        if (combo === 'ctrl+shift+alt') {
          expect(keys).toEqual(['LeftControl', 'LeftShift', 'LeftAlt'])
          continue
        }
      } catch (caught) {
        error = caught
      }
      expect(error, `"${combo}" should be refused`).toBeInstanceOf(KeyComboError)
      expect((error as Error).message.length).toBeGreaterThan(20)
    }
    expect(() => parseKeyCombo('ctrl+entr', 'linux')).toThrow(/"entr" in "ctrl\+entr" is not a key/)
  })
})
