import { describe, expect, it } from 'vitest'
import {
  type Accelerator,
  formatAccelerator,
  type KeyEventLike,
  matchesAccelerator,
  parseAccelerator,
  shortcutLabel
} from '../../../src/shared/accelerator'

const press = (key: string, code: string, mods: Partial<Omit<KeyEventLike, 'key' | 'code'>> = {}): KeyEventLike => ({
  key,
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods
})

const parse = (text: string, mac = false): Accelerator => {
  const accelerator = parseAccelerator(text, mac)
  if (!accelerator) throw new Error(`${text} did not parse`)
  return accelerator
}

const modifiers = (a: Accelerator | null) => a && { ctrl: a.ctrl, alt: a.alt, shift: a.shift, meta: a.meta, key: a.key.name }

describe('parseAccelerator', () => {
  it('reads the default stop shortcut', () => {
    expect(modifiers(parseAccelerator('Ctrl+Alt+Escape', false))).toEqual({
      ctrl: true,
      alt: true,
      shift: false,
      meta: false,
      key: 'Escape'
    })
  })

  it('knows every modifier spelling Electron does, in any case', () => {
    for (const ctrl of ['Ctrl', 'Control', 'ctrl', 'CONTROL']) expect(parse(`${ctrl}+A`).ctrl).toBe(true)
    for (const alt of ['Alt', 'Option', 'alt', 'option']) expect(parse(`${alt}+A`).alt).toBe(true)
    expect(parse('Shift+A').shift).toBe(true)
    for (const meta of ['Cmd', 'Command', 'Super', 'Meta', 'super']) expect(parse(`${meta}+A`).meta).toBe(true)
  })

  it('takes CommandOrControl as ⌘ on macOS and Ctrl elsewhere', () => {
    for (const name of ['CommandOrControl', 'CmdOrCtrl', 'cmdorctrl']) {
      expect(modifiers(parseAccelerator(`${name}+Q`, true))).toMatchObject({ ctrl: false, meta: true })
      expect(modifiers(parseAccelerator(`${name}+Q`, false))).toMatchObject({ ctrl: true, meta: false })
    }
  })

  it('reads keys: Esc and Escape, F1 to F24, letters, digits, named keys, Plus', () => {
    expect(parse('Ctrl+Esc').key.name).toBe('Escape')
    expect(parse('Ctrl+escape').key.name).toBe('Escape')
    expect(parse('F1').key.name).toBe('F1')
    expect(parse('Alt+F24').key.name).toBe('F24')
    expect(parse('Ctrl+q').key.name).toBe('Q')
    expect(parse('Ctrl+7').key.name).toBe('7')
    expect(parse('Ctrl+Return').key.name).toBe('Return')
    expect(parse('Ctrl+Enter').key.name).toBe('Return')
    expect(parse('Ctrl+Space').key.name).toBe('Space')
    expect(parse('Ctrl+PageDown').key.name).toBe('PageDown')
    expect(parse('Ctrl+Plus').key.name).toBe('Plus')
    expect(parse('Ctrl+num5').key.name).toBe('num5')
    expect(parse('Ctrl+/').key.name).toBe('/')
  })

  it('tolerates spaces around the parts', () => {
    expect(modifiers(parseAccelerator(' Ctrl + Alt + Escape ', false))).toMatchObject({ ctrl: true, alt: true, key: 'Escape' })
  })

  it('refuses what is not one accelerator', () => {
    for (const text of [
      '',
      'Ctrl',
      'Ctrl+Alt',
      'Ctrl+',
      '+A',
      'Ctrl++',
      'Ctrl+A+B',
      'A+Ctrl',
      'Ctrl+F25',
      'Ctrl+F0',
      'Ctrl+Escapee',
      'Hyper+A',
      'Ctrl+toString',
      'constructor+A'
    ]) {
      expect(parseAccelerator(text, false), text).toBeNull()
      expect(parseAccelerator(text, true), text).toBeNull()
    }
  })
})

describe('matchesAccelerator', () => {
  it('matches the default shortcut and nothing near it', () => {
    const stop = parse('Ctrl+Alt+Escape')
    expect(matchesAccelerator(stop, press('Escape', 'Escape', { ctrlKey: true, altKey: true }))).toBe(true)
    expect(matchesAccelerator(stop, press('Escape', 'Escape'))).toBe(false)
    expect(matchesAccelerator(stop, press('Escape', 'Escape', { ctrlKey: true }))).toBe(false)
    expect(matchesAccelerator(stop, press('Escape', 'Escape', { ctrlKey: true, altKey: true, shiftKey: true }))).toBe(false)
    expect(matchesAccelerator(stop, press('Escape', 'Escape', { ctrlKey: true, altKey: true, metaKey: true }))).toBe(false)
    expect(matchesAccelerator(stop, press('F1', 'F1', { ctrlKey: true, altKey: true }))).toBe(false)
  })

  it('matches the old "Esc" key value too', () => {
    expect(matchesAccelerator(parse('Esc'), press('Esc', ''))).toBe(true)
  })

  it('matches letters by the key typed or its position (Option+A types å on macOS)', () => {
    const a = parse('Ctrl+Shift+A')
    expect(matchesAccelerator(a, press('A', 'KeyA', { ctrlKey: true, shiftKey: true }))).toBe(true)
    expect(matchesAccelerator(a, press('a', 'KeyA', { ctrlKey: true }))).toBe(false)
    const option = parse('Option+A', true)
    expect(matchesAccelerator(option, press('å', 'KeyA', { altKey: true }))).toBe(true)
  })

  it('matches digits by position when Shift changes the character', () => {
    expect(matchesAccelerator(parse('Ctrl+Shift+1'), press('!', 'Digit1', { ctrlKey: true, shiftKey: true }))).toBe(true)
  })

  it('does not ask for Shift on keys typed with it (Plus, !)', () => {
    expect(matchesAccelerator(parse('Ctrl+Plus'), press('+', 'Equal', { ctrlKey: true, shiftKey: true }))).toBe(true)
    expect(matchesAccelerator(parse('Ctrl+!'), press('!', 'Digit1', { ctrlKey: true, shiftKey: true }))).toBe(true)
  })

  it('tells the numpad from the digit row', () => {
    const num = parse('Ctrl+num1')
    expect(matchesAccelerator(num, press('1', 'Numpad1', { ctrlKey: true }))).toBe(true)
    expect(matchesAccelerator(num, press('1', 'Digit1', { ctrlKey: true }))).toBe(false)
  })

  it('matches CmdOrCtrl with ⌘ on macOS and Ctrl elsewhere', () => {
    const event = { mac: press('q', 'KeyQ', { metaKey: true }), pc: press('q', 'KeyQ', { ctrlKey: true }) }
    expect(matchesAccelerator(parse('CmdOrCtrl+Q', true), event.mac)).toBe(true)
    expect(matchesAccelerator(parse('CmdOrCtrl+Q', true), event.pc)).toBe(false)
    expect(matchesAccelerator(parse('CmdOrCtrl+Q', false), event.pc)).toBe(true)
    expect(matchesAccelerator(parse('CmdOrCtrl+Q', false), event.mac)).toBe(false)
  })

  it('matches arrows, F-keys and Enter by their DOM names', () => {
    expect(matchesAccelerator(parse('Alt+Up'), press('ArrowUp', 'ArrowUp', { altKey: true }))).toBe(true)
    expect(matchesAccelerator(parse('Shift+F12'), press('F12', 'F12', { shiftKey: true }))).toBe(true)
    expect(matchesAccelerator(parse('Ctrl+Return'), press('Enter', 'NumpadEnter', { ctrlKey: true }))).toBe(true)
    expect(matchesAccelerator(parse('Ctrl+Space'), press(' ', 'Space', { ctrlKey: true }))).toBe(true)
  })
})

describe('formatAccelerator', () => {
  it('writes Ctrl+Alt+Esc for Ctrl+Alt+Escape off macOS, ⌃⌥⎋ on it', () => {
    expect(formatAccelerator(parse('Ctrl+Alt+Escape'), false)).toBe('Ctrl+Alt+Esc')
    expect(formatAccelerator(parse('Ctrl+Alt+Escape', true), true)).toBe('⌃⌥⎋')
  })

  it('orders the modifiers the usual way whatever order they were written in', () => {
    expect(formatAccelerator(parse('Shift+Alt+Control+x'), false)).toBe('Ctrl+Alt+Shift+X')
    expect(formatAccelerator(parse('Cmd+Shift+Option+Ctrl+x', true), true)).toBe('⌃⌥⇧⌘X')
    expect(formatAccelerator(parse('CmdOrCtrl+Shift+Plus', false), false)).toBe('Ctrl+Shift++')
  })

  it('shortcutLabel falls back to the text when it does not parse', () => {
    expect(shortcutLabel('CmdOrCtrl+Alt+Escape', false)).toBe('Ctrl+Alt+Esc')
    expect(shortcutLabel('Hyper+Nope', false)).toBe('Hyper+Nope')
  })

  it('round-trips: what it writes off macOS parses back to the same accelerator', () => {
    for (const text of ['Ctrl+Alt+Escape', 'Shift+F5', 'Ctrl+Alt+Shift+Super+Z', 'Alt+Delete', 'Ctrl+PageUp', 'Ctrl+Tab']) {
      const accelerator = parse(text)
      const written = formatAccelerator(accelerator, false)
      expect(modifiers(parseAccelerator(written.replace('PgUp', 'PageUp'), false)), text).toEqual(modifiers(accelerator))
    }
  })
})
