/**
 * Issue 22, item 7: the text the model gets for a denial has a full stop between the person's
 * reason and "It did not run." — whatever the reason ended with (nothing, a Latin or a CJK stop).
 */
import { describe, expect, it } from 'vitest'
import { answerDenialForModel, withFullStop } from '../../../src/main/agent/tool-call-texts'

describe('the denial the model is told', () => {
  it('ends the reason with a full stop before "It did not run."', () => {
    expect(answerDenialForModel('shell', 'user', 'keep the build folder')).toBe(
      'The user denied this shell call. Reason: keep the build folder. It did not run. Do not repeat it unchanged.'
    )
    expect(answerDenialForModel('shell', 'user', 'Keep it!')).toContain('Reason: Keep it! It did not run.')
    expect(answerDenialForModel('shell', 'user', '先别删。')).toContain('Reason: 先别删。 It did not run.')
    expect(answerDenialForModel('shell', 'user', undefined)).toBe('The user denied this shell call. It did not run. Do not repeat it unchanged.')
    expect(answerDenialForModel('shell', 'timeout', 'No answer before the approval timed out.')).toBe(
      'This shell call was not approved (timeout). Reason: No answer before the approval timed out. It did not run.'
    )
  })

  it('adds a stop only where one is missing', () => {
    expect(withFullStop('done')).toBe('done.')
    expect(withFullStop('done.')).toBe('done.')
    expect(withFullStop('(see “notes.”)')).toBe('(see “notes.”)')
    expect(withFullStop('他说：“好。”')).toBe('他说：“好。”')
    expect(withFullStop('  spaced  ')).toBe('spaced.')
  })
})
