/**
 * Key names as the model writes them (`ctrl+shift+t`, `mod+v`, `Enter`, `F5`) turned into the
 * driver's key names (nut-js `Key` members), and ASCII text into key strokes (docs/desktop.md,
 * "Key names"). `mod` is Ctrl on Linux and Windows and Cmd on macOS.
 *
 * `enter` is the main Return key on every OS. nut-js's `Key.Enter` is libnut's "enter", which is
 * the keypad's Enter (X11 `KP_Enter`, macOS `kVK_ANSI_KeypadEnter`); `Key.Return` is libnut's
 * "return" (X11 `Return`, macOS `kVK_Return`, Windows `VK_RETURN`). A chat client ignored the
 * keypad key (docs/desktop.md, "Key names"), so `kpenter` is the only name for it.
 */

const MODIFIERS: Record<string, (platform: NodeJS.Platform) => string> = {
  ctrl: () => 'LeftControl',
  control: () => 'LeftControl',
  shift: () => 'LeftShift',
  alt: () => 'LeftAlt',
  option: () => 'LeftAlt',
  opt: () => 'LeftAlt',
  mod: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftControl'),
  cmd: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftSuper'),
  command: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftSuper'),
  meta: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftSuper'),
  super: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftSuper'),
  win: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftSuper'),
  windows: (platform) => (platform === 'darwin' ? 'LeftCmd' : 'LeftSuper')
}

/** Every other key by its lower-case names. */
const KEYS: Record<string, string> = {
  enter: 'Return',
  return: 'Return',
  kpenter: 'Enter',
  numpadenter: 'Enter',
  kpplus: 'Add',
  kpminus: 'Subtract',
  kpmultiply: 'Multiply',
  kpdivide: 'Divide',
  kpdecimal: 'Decimal',
  esc: 'Escape',
  escape: 'Escape',
  tab: 'Tab',
  space: 'Space',
  backspace: 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pgup: 'PageUp',
  pagedown: 'PageDown',
  pgdn: 'PageDown',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  capslock: 'CapsLock',
  printscreen: 'Print',
  print: 'Print',
  menu: 'Menu',
  '-': 'Minus',
  minus: 'Minus',
  '=': 'Equal',
  equal: 'Equal',
  '[': 'LeftBracket',
  ']': 'RightBracket',
  '\\': 'Backslash',
  ';': 'Semicolon',
  "'": 'Quote',
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
  '`': 'Grave',
  plus: 'Equal' // `ctrl+plus` zooms in: the key that carries + on a US keyboard
}
for (let n = 1; n <= 24; n++) KEYS[`f${n}`] = `F${n}`
for (let d = 0; d <= 9; d++) KEYS[String(d)] = `Num${d}`
for (let d = 0; d <= 9; d++) KEYS[`kp${d}`] = `NumPad${d}`
for (const letter of 'abcdefghijklmnopqrstuvwxyz') KEYS[letter] = letter.toUpperCase()

/** Every key name this module reads, modifiers included, as `mod` reads on `platform` (for docs and tests). */
export function keyNameTable(platform: NodeJS.Platform = process.platform): Array<{ name: string; driverKey: string; modifier: boolean }> {
  return [
    ...Object.entries(MODIFIERS).map(([name, key]) => ({ name, driverKey: key(platform), modifier: true })),
    ...Object.entries(KEYS).map(([name, driverKey]) => ({ name, driverKey, modifier: false }))
  ]
}

export class KeyComboError extends Error {}

/**
 * `ctrl+shift+t` → ['LeftControl', 'LeftShift', 'T']: modifiers first, one other key at most.
 * Throws a KeyComboError that says which part is not a key.
 */
export function parseKeyCombo(combo: string, platform: NodeJS.Platform = process.platform): string[] {
  const parts = combo
    .trim()
    .split(/\s*\+\s*(?=.)/)
    .map((part) => part.trim())
  if (parts.length === 0 || parts.some((part) => part === '')) throw new KeyComboError(`"${combo}" is not a key combination (write e.g. ctrl+shift+t).`)
  const modifiers: string[] = []
  const others: string[] = []
  for (const part of parts) {
    const lower = part.toLowerCase()
    const modifier = MODIFIERS[lower]
    if (modifier) {
      const name = modifier(platform)
      if (!modifiers.includes(name)) modifiers.push(name)
      continue
    }
    const key = KEYS[lower]
    if (!key) throw new KeyComboError(`"${part}" in "${combo}" is not a key this tool knows (letters, digits, F1-F24, enter, kpenter, esc, tab, arrows, …; docs/desktop.md lists every name).`)
    others.push(key)
  }
  if (others.length > 1) throw new KeyComboError(`"${combo}" presses ${others.length} ordinary keys at once; give one key with its modifiers.`)
  return [...modifiers, ...others]
}

/** Characters a US keyboard types with Shift, and the key that carries each. */
const SHIFTED: Record<string, string> = {
  '~': 'Grave', '!': 'Num1', '@': 'Num2', '#': 'Num3', '$': 'Num4', '%': 'Num5', '^': 'Num6', '&': 'Num7', '*': 'Num8',
  '(': 'Num9', ')': 'Num0', _: 'Minus', '+': 'Equal', '{': 'LeftBracket', '}': 'RightBracket', '|': 'Backslash',
  ':': 'Semicolon', '"': 'Quote', '<': 'Comma', '>': 'Period', '?': 'Slash'
}

/** True when every character of `text` can be typed as a key stroke (printable ASCII, tab and newline). */
export function typeableAsKeys(text: string): boolean {
  return /^[\x20-\x7e\t\n]*$/.test(text)
}

/**
 * Printable ASCII as key strokes on a US layout (`A` → Shift+A, `!` → Shift+1, `\n` → the main Return key).
 * Other characters are entered by paste (nut-js types them wrongly on Linux and Windows).
 */
export function textToKeyStrokes(text: string): string[][] {
  const strokes: string[][] = []
  for (const char of text) {
    if (char === '\n') strokes.push(['Return'])
    else if (char === '\t') strokes.push(['Tab'])
    else if (char === ' ') strokes.push(['Space'])
    else if (/[A-Z]/.test(char)) strokes.push(['LeftShift', char])
    else if (SHIFTED[char]) strokes.push(['LeftShift', SHIFTED[char]!])
    else {
      const key = KEYS[char]
      if (!key) throw new KeyComboError(`"${char}" cannot be typed as a key; it is entered by paste.`)
      strokes.push([key])
    }
  }
  return strokes
}
