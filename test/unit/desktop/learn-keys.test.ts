import { describe, expect, it } from 'vitest'
import { keyNameTable, parseKeyCombo } from '../../../src/main/desktop/keys'
import { parseDesktopArgs } from '../../../src/main/cli/args'
import { comboFromKeyEvent } from '../../../src/renderer/src/features/settings/learn-keys'

// The wizard's two front doors speak the key-name table (docs/desktop.md, "Key names"): a key
// pressed in the Settings dialog becomes a name main accepts, and `deskclaw desktop learn` takes
// its answers as flags of its own.

/** The physical keys of a full keyboard (KeyboardEvent.code), except the modifiers. */
const CODES = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((c) => `Key${c}`),
  ...Array.from({ length: 10 }, (_, d) => `Digit${d}`),
  ...Array.from({ length: 10 }, (_, d) => `Numpad${d}`),
  ...Array.from({ length: 24 }, (_, n) => `F${n + 1}`),
  'Enter', 'NumpadEnter', 'Escape', 'Tab', 'Space', 'Backspace', 'Delete', 'Insert', 'Home', 'End', 'PageUp', 'PageDown',
  'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'CapsLock', 'PrintScreen', 'ContextMenu',
  'NumpadAdd', 'NumpadSubtract', 'NumpadMultiply', 'NumpadDivide', 'NumpadDecimal',
  'Minus', 'Equal', 'BracketLeft', 'BracketRight', 'Backslash', 'Semicolon', 'Quote', 'Comma', 'Period', 'Slash', 'Backquote'
]
const press = (code: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) =>
  comboFromKeyEvent({ code, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods })

describe('keys pressed in the wizard', () => {
  it('names every physical key so that main accepts it, alone and with every modifier', () => {
    const names = new Set(keyNameTable('linux').filter((k) => !k.modifier).map((k) => k.name))
    const produced = new Set<string>()
    for (const code of CODES) {
      const name = press(code)
      expect(name, code).not.toBeNull()
      expect(names.has(name!), `${code} → ${name}`).toBe(true)
      produced.add(name!)
      const combo = press(code, { ctrlKey: true, altKey: true, shiftKey: true, metaKey: true })
      expect(combo).toBe(`ctrl+alt+shift+meta+${name}`)
      expect(() => parseKeyCombo(combo!, 'linux')).not.toThrow()
    }
    // Each key of the table is reachable by pressing it (aliases aside: one name per physical key).
    expect(produced.size).toBe(CODES.length)
    expect(press('Enter')).toBe('enter')
    expect(press('NumpadEnter')).toBe('kpenter')
    expect(press('KeyF', { ctrlKey: true })).toBe('ctrl+f')
  })

  it('waits for the key a modifier goes with, and ignores keys without a name', () => {
    for (const code of ['ControlLeft', 'ShiftRight', 'AltLeft', 'MetaLeft', 'Fn', 'Unidentified', 'F25']) expect(press(code, { ctrlKey: true }), code).toBeNull()
  })
})

describe('deskclaw desktop learn flags', () => {
  it('are its own, every one optional; others are usage errors', () => {
    expect(parseDesktopArgs(['learn'])).toMatchObject({ action: 'learn', learn: { help: false } })
    const args = parseDesktopArgs(['learn', '--window', 'W', '--search-key', 'ctrl+f', '--send-key', 'enter', '--chat', '#a', '--try-chat', '#b', '--try-text', 't', '--id', 'x', '--name', 'X', '--name-zh', '某', '--data-dir', '/tmp/d'])
    expect(args.learn).toEqual({ window: 'W', searchKey: 'ctrl+f', sendKey: 'enter', chat: '#a', tryChat: '#b', tryText: 't', id: 'x', name: 'X', nameZh: '某', dataDir: '/tmp/d', help: false })
    expect(parseDesktopArgs(['learn', '-h']).help).toBe(true)
    expect(() => parseDesktopArgs(['learn', '--app', 'weixin'])).toThrow(/desktop learn: .*--app/)
    expect(() => parseDesktopArgs(['learn', 'extra'])).toThrow(/desktop learn/)
    expect(() => parseDesktopArgs(['send-text', '--search-key', 'x'])).toThrow()
  })
})
