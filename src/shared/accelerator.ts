/**
 * Electron accelerators ("Ctrl+Alt+Escape", "CmdOrCtrl+Shift+F12") read without Electron: parsed,
 * matched against a DOM keydown, and written for people ("Ctrl+Alt+Esc", "⌃⌥⎋"). The desktop stop
 * shortcut is a global shortcut in the Electron app; in the page (and in the web host, which has
 * no global shortcut) the renderer matches it itself. Pure: no DOM, no React, the platform passed in.
 * Shared so that main refuses to save a shortcut the renderer could not match (docs/desktop.md).
 */

export interface Accelerator {
  ctrl: boolean
  alt: boolean
  shift: boolean
  /** ⌘ on macOS, the Windows / Super key elsewhere. */
  meta: boolean
  /** The one key that is not a modifier. */
  key: KeySpec
}

/** The subset of a KeyboardEvent that matching reads. */
export interface KeyEventLike {
  key: string
  code: string
  ctrlKey: boolean
  altKey: boolean
  shiftKey: boolean
  metaKey: boolean
}

export interface KeySpec {
  /** The accelerator's own name for it (Electron's spelling): "Escape", "F5", "A", "Plus". */
  name: string
  /** `KeyboardEvent.key` values that are this key, lower-cased (empty: match by code only). */
  keys: readonly string[]
  /** `KeyboardEvent.code` values that are this key (layout-independent, e.g. Option+A on macOS types "å"). */
  codes: readonly string[]
  /** Typed with Shift on most layouts ("!", "Plus"): Shift is then not part of the comparison. */
  shifted?: boolean
  /** How people read it, and the macOS symbol when there is one. */
  label: string
  macLabel?: string
}

type Modifier = 'ctrl' | 'alt' | 'shift' | 'meta' | 'cmdOrCtrl' | 'altGr'

const MODIFIERS: Record<string, Modifier> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  altgr: 'altGr',
  shift: 'shift',
  cmd: 'meta',
  command: 'meta',
  super: 'meta',
  meta: 'meta',
  cmdorctrl: 'cmdOrCtrl',
  commandorcontrol: 'cmdOrCtrl'
}

const KEYS = new Map<string, KeySpec>()

function addKey(names: readonly string[], spec: Omit<KeySpec, 'name' | 'label'> & { label?: string }): void {
  const full: KeySpec = { ...spec, name: names[0]!, label: spec.label ?? names[0]! }
  for (const name of names) KEYS.set(name.toLowerCase(), full)
}

for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') addKey([letter], { keys: [letter.toLowerCase()], codes: [`Key${letter}`] })
for (let digit = 0; digit <= 9; digit++) addKey([String(digit)], { keys: [String(digit)], codes: [`Digit${digit}`] })
for (let n = 1; n <= 24; n++) addKey([`F${n}`], { keys: [`f${n}`], codes: [`F${n}`] })
for (let digit = 0; digit <= 9; digit++) addKey([`num${digit}`], { keys: [], codes: [`Numpad${digit}`], label: `Num${digit}` })

addKey(['Escape', 'Esc'], { keys: ['escape', 'esc'], codes: ['Escape'], label: 'Esc', macLabel: '⎋' })
addKey(['Return', 'Enter'], { keys: ['enter'], codes: ['Enter', 'NumpadEnter'], label: 'Enter', macLabel: '↩' })
addKey(['Space'], { keys: [' ', 'spacebar'], codes: ['Space'], label: 'Space' })
addKey(['Tab'], { keys: ['tab'], codes: ['Tab'], macLabel: '⇥' })
addKey(['Backspace'], { keys: ['backspace'], codes: ['Backspace'], macLabel: '⌫' })
addKey(['Delete', 'Del'], { keys: ['delete', 'del'], codes: ['Delete'], label: 'Del', macLabel: '⌦' })
addKey(['Insert', 'Ins'], { keys: ['insert'], codes: ['Insert'], label: 'Ins' })
addKey(['Home'], { keys: ['home'], codes: ['Home'], macLabel: '↖' })
addKey(['End'], { keys: ['end'], codes: ['End'], macLabel: '↘' })
addKey(['PageUp'], { keys: ['pageup'], codes: ['PageUp'], label: 'PgUp', macLabel: '⇞' })
addKey(['PageDown'], { keys: ['pagedown'], codes: ['PageDown'], label: 'PgDn', macLabel: '⇟' })
addKey(['Up'], { keys: ['arrowup', 'up'], codes: ['ArrowUp'], label: '↑' })
addKey(['Down'], { keys: ['arrowdown', 'down'], codes: ['ArrowDown'], label: '↓' })
addKey(['Left'], { keys: ['arrowleft', 'left'], codes: ['ArrowLeft'], label: '←' })
addKey(['Right'], { keys: ['arrowright', 'right'], codes: ['ArrowRight'], label: '→' })
addKey(['Capslock'], { keys: ['capslock'], codes: ['CapsLock'], label: 'CapsLock', macLabel: '⇪' })
addKey(['Numlock'], { keys: ['numlock'], codes: ['NumLock'], label: 'NumLock' })
addKey(['Scrolllock'], { keys: ['scrolllock'], codes: ['ScrollLock'], label: 'ScrollLock' })
addKey(['PrintScreen'], { keys: ['printscreen'], codes: ['PrintScreen'], label: 'PrtSc' })
addKey(['VolumeUp'], { keys: ['audiovolumeup', 'volumeup'], codes: ['AudioVolumeUp', 'VolumeUp'] })
addKey(['VolumeDown'], { keys: ['audiovolumedown', 'volumedown'], codes: ['AudioVolumeDown', 'VolumeDown'] })
addKey(['VolumeMute'], { keys: ['audiovolumemute', 'volumemute'], codes: ['AudioVolumeMute', 'VolumeMute'] })
addKey(['MediaNextTrack'], { keys: ['mediatracknext'], codes: ['MediaTrackNext'] })
addKey(['MediaPreviousTrack'], { keys: ['mediatrackprevious'], codes: ['MediaTrackPrevious'] })
addKey(['MediaStop'], { keys: ['mediastop'], codes: ['MediaStop'] })
addKey(['MediaPlayPause'], { keys: ['mediaplaypause'], codes: ['MediaPlayPause'] })
addKey(['numdec'], { keys: [], codes: ['NumpadDecimal'], label: 'Num.' })
addKey(['numadd'], { keys: [], codes: ['NumpadAdd'], label: 'Num+' })
addKey(['numsub'], { keys: [], codes: ['NumpadSubtract'], label: 'Num-' })
addKey(['nummult'], { keys: [], codes: ['NumpadMultiply'], label: 'Num*' })
addKey(['numdiv'], { keys: [], codes: ['NumpadDivide'], label: 'Num/' })
// "+" separates the parts, so the plus key is spelled Plus.
addKey(['Plus'], { keys: ['+'], codes: [], shifted: true, label: '+' })
// Punctuation: matched by the character typed (its key moves between layouts).
for (const char of "=-,./;'[]\\`") addKey([char], { keys: [char], codes: [] })
for (const char of ')!@#$%^&*(:<_>?~{|}"') addKey([char], { keys: [char], codes: [], shifted: true })

/**
 * Reads an accelerator the way Electron does: parts joined by "+", case-insensitive, any number
 * of modifiers and exactly one other key. CommandOrControl is ⌘ on macOS and Ctrl elsewhere;
 * AltGr is taken as Ctrl+Alt (how Windows reports it). Null when it is not one.
 */
export function parseAccelerator(text: string, mac: boolean): Accelerator | null {
  const parts = text.split('+').map((part) => part.trim())
  if (parts.length === 0 || parts.some((part) => part === '')) return null
  const accelerator: Omit<Accelerator, 'key'> = { ctrl: false, alt: false, shift: false, meta: false }
  let key: KeySpec | null = null
  for (const part of parts) {
    const lower = part.toLowerCase()
    const modifier = Object.hasOwn(MODIFIERS, lower) ? MODIFIERS[lower] : undefined
    if (modifier) {
      if (key) return null // modifiers come first
      if (modifier === 'cmdOrCtrl') accelerator[mac ? 'meta' : 'ctrl'] = true
      else if (modifier === 'altGr') {
        accelerator.alt = true
        if (!mac) accelerator.ctrl = true
      } else accelerator[modifier] = true
      continue
    }
    const spec = KEYS.get(lower)
    if (!spec || key) return null
    key = spec
  }
  return key ? { ...accelerator, key } : null
}

/** Whether a keydown is this accelerator: the same key and exactly its modifiers. */
export function matchesAccelerator(accelerator: Accelerator, event: KeyEventLike): boolean {
  if (event.ctrlKey !== accelerator.ctrl || event.altKey !== accelerator.alt || event.metaKey !== accelerator.meta) return false
  if (!accelerator.key.shifted && event.shiftKey !== accelerator.shift) return false
  const { keys, codes } = accelerator.key
  return codes.includes(event.code) || keys.includes(event.key.toLowerCase())
}

/** For people: "Ctrl+Alt+Esc" (Windows, Linux), "⌃⌥⎋" (macOS, in Apple's modifier order). */
export function formatAccelerator(accelerator: Accelerator, mac: boolean): string {
  const { ctrl, alt, shift, meta, key } = accelerator
  if (mac) {
    return `${ctrl ? '⌃' : ''}${alt ? '⌥' : ''}${shift ? '⇧' : ''}${meta ? '⌘' : ''}${key.macLabel ?? key.label}`
  }
  const parts: string[] = []
  if (ctrl) parts.push('Ctrl')
  if (alt) parts.push('Alt')
  if (shift) parts.push('Shift')
  if (meta) parts.push('Super')
  parts.push(key.label)
  return parts.join('+')
}

/** The accelerator as people read it, or the text itself when it does not parse. */
export function shortcutLabel(text: string, mac: boolean): string {
  const accelerator = parseAccelerator(text, mac)
  return accelerator ? formatAccelerator(accelerator, mac) : text
}
