import { describe, expect, it } from 'vitest'
import { KeyComboError, parseKeyCombo, textToKeyStrokes, typeableAsKeys } from '../../../src/main/desktop'

describe('parseKeyCombo', () => {
  it('puts modifiers first and maps names to driver keys', () => {
    expect(parseKeyCombo('ctrl+shift+t', 'linux')).toEqual(['LeftControl', 'LeftShift', 'T'])
    expect(parseKeyCombo('Alt + Tab', 'linux')).toEqual(['LeftAlt', 'Tab'])
    expect(parseKeyCombo('enter', 'linux')).toEqual(['Return'])
    expect(parseKeyCombo('kpenter', 'linux')).toEqual(['Enter'])
    expect(parseKeyCombo('F5', 'win32')).toEqual(['F5'])
    expect(parseKeyCombo('ctrl+-', 'linux')).toEqual(['LeftControl', 'Minus'])
  })

  it('reads mod as Ctrl on Linux and Windows and as Cmd on macOS', () => {
    expect(parseKeyCombo('mod+v', 'linux')).toEqual(['LeftControl', 'V'])
    expect(parseKeyCombo('mod+v', 'win32')).toEqual(['LeftControl', 'V'])
    expect(parseKeyCombo('mod+v', 'darwin')).toEqual(['LeftCmd', 'V'])
    expect(parseKeyCombo('cmd+q', 'darwin')).toEqual(['LeftCmd', 'Q'])
    expect(parseKeyCombo('super+e', 'linux')).toEqual(['LeftSuper', 'E'])
  })

  it('names the part that is not a key, and refuses two ordinary keys at once', () => {
    expect(() => parseKeyCombo('ctrl+banana', 'linux')).toThrow(/"banana" in "ctrl\+banana" is not a key/)
    expect(() => parseKeyCombo('a+b', 'linux')).toThrow(KeyComboError)
    expect(() => parseKeyCombo('', 'linux')).toThrow(KeyComboError)
    expect(() => parseKeyCombo('ctrl+', 'linux')).toThrow(KeyComboError)
  })
})

describe('textToKeyStrokes', () => {
  it('types capitals and shifted punctuation with Shift on a US layout', () => {
    expect(textToKeyStrokes('Hi!')).toEqual([['LeftShift', 'H'], ['I'], ['LeftShift', 'Num1']])
    expect(textToKeyStrokes('a b\n')).toEqual([['A'], ['Space'], ['B'], ['Return']])
    expect(textToKeyStrokes('(x)=1;')).toEqual([['LeftShift', 'Num9'], ['X'], ['LeftShift', 'Num0'], ['Equal'], ['Num1'], ['Semicolon']])
  })

  it('refuses what only paste can enter', () => {
    expect(typeableAsKeys('plain ascii ~!')).toBe(true)
    expect(typeableAsKeys('你好')).toBe(false)
    expect(typeableAsKeys('é')).toBe(false)
    expect(() => textToKeyStrokes('你')).toThrow(KeyComboError)
  })
})
