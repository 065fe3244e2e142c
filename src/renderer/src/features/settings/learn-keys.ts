/**
 * A key pressed in the wizard, written as docs/desktop.md "Key names" writes it (`ctrl+f`, `enter`,
 * `kpenter`): by the physical key (event.code), so the layout and Shift do not change the name.
 * Main checks the name against its key table again.
 */
const CODES: Record<string, string> = {
  Enter: 'enter',
  NumpadEnter: 'kpenter',
  Escape: 'esc',
  Tab: 'tab',
  Space: 'space',
  Backspace: 'backspace',
  Delete: 'delete',
  Insert: 'insert',
  Home: 'home',
  End: 'end',
  PageUp: 'pageup',
  PageDown: 'pagedown',
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  CapsLock: 'capslock',
  PrintScreen: 'printscreen',
  ContextMenu: 'menu',
  NumpadAdd: 'kpplus',
  NumpadSubtract: 'kpminus',
  NumpadMultiply: 'kpmultiply',
  NumpadDivide: 'kpdivide',
  NumpadDecimal: 'kpdecimal',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`'
}

function keyName(code: string): string | null {
  if (CODES[code]) return CODES[code]
  let m = /^Key([A-Z])$/.exec(code)
  if (m) return m[1]!.toLowerCase()
  m = /^Digit(\d)$/.exec(code)
  if (m) return m[1]!
  m = /^Numpad(\d)$/.exec(code)
  if (m) return `kp${m[1]}`
  m = /^F(\d{1,2})$/.exec(code)
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 24) return `f${m[1]}`
  return null
}

/** The combination, modifiers first; null for a modifier alone or a key without a name. */
export function comboFromKeyEvent(event: Pick<KeyboardEvent, 'code' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): string | null {
  const key = keyName(event.code)
  if (!key) return null
  const mods = [event.ctrlKey && 'ctrl', event.altKey && 'alt', event.shiftKey && 'shift', event.metaKey && 'meta'].filter(Boolean)
  return [...mods, key].join('+')
}
