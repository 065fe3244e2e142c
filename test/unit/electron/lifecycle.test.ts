import { describe, expect, it } from 'vitest'
import { closeAction, startupFailureMessage } from '../../../src/main/electron/policy/lifecycle'

describe('closeAction', () => {
  it.each([
    ['linux', false, true, 'hide'],
    ['win32', false, true, 'hide'],
    ['linux', false, false, 'close'],
    ['win32', false, false, 'close'],
    ['linux', true, true, 'close'],
    ['win32', true, true, 'close'],
    ['darwin', false, true, 'close'],
    ['darwin', false, false, 'close']
  ] as const)('%s, quitting %s, tray %s → %s', (platform, quitting, keepRunning, expected) => {
    expect(closeAction({ platform, quitting, keepRunning })).toBe(expected)
  })
})

describe('startupFailureMessage', () => {
  it('is the first line of the reason', () => {
    expect(startupFailureMessage(new Error('The database is locked.\n    at open (db.ts:1)'))).toBe('The database is locked.')
    expect(startupFailureMessage(new Error('\n  \nsecond line first'))).toBe('second line first')
    expect(startupFailureMessage('plain text')).toBe('plain text')
  })

  it('is never empty and never a wall of text', () => {
    expect(startupFailureMessage(new Error(''))).toMatch(/unexpected error/)
    expect(startupFailureMessage(undefined)).toMatch(/unexpected error/)
    expect(startupFailureMessage({ message: 1 })).toMatch(/unexpected error/)
    const long = startupFailureMessage(new Error('x'.repeat(1000)))
    expect(long.length).toBe(300)
    expect(long.endsWith('…')).toBe(true)
  })
})
