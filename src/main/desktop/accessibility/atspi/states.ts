/** AT-SPI's state set (two 32-bit words, `AtspiStateType` bit numbers) as DeskClaw's state names. */
import type { AccessibleState } from '../types'

const BITS: Partial<Record<number, AccessibleState>> = {
  1: 'active',
  4: 'checked',
  7: 'editable',
  8: 'enabled',
  10: 'expanded',
  11: 'focusable',
  12: 'focused',
  17: 'multi-line',
  22: 'selectable',
  23: 'selected',
  24: 'sensitive',
  25: 'showing',
  26: 'single-line',
  30: 'visible'
}

export function decodeStates(words: readonly number[]): AccessibleState[] {
  const states: AccessibleState[] = []
  for (const [bit, name] of Object.entries(BITS)) {
    const n = Number(bit)
    const word = words[Math.floor(n / 32)] ?? 0
    if ((word >>> n % 32) & 1) states.push(name!)
  }
  return states
}
