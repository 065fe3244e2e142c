import { describe, expect, it } from 'vitest'
import { CodeStrictnessSchema } from '../../../src/shared'
import { decideCodePlacement, looksForSandbox, SANDBOX_AVAILABILITY } from '../../../src/main/tools/code'

/*
 * run_code's level → runtime decision (docs/tools.md, "run_code"), walked over every level and
 * every sandbox availability the code knows: the rules below are stated once, each cell is checked
 * against all of them, so a new level or availability is covered the moment it exists.
 */
const cells = CodeStrictnessSchema.options.flatMap((level) => SANDBOX_AVAILABILITY.map((availability) => ({ level, availability })))

describe('run_code placement, every level × availability', () => {
  it('has a cell for each of the 3 levels × 3 availabilities', () => {
    expect(cells).toHaveLength(CodeStrictnessSchema.options.length * SANDBOX_AVAILABILITY.length)
    expect(cells.length).toBeGreaterThanOrEqual(9)
  })

  for (const { level, availability } of cells) {
    it(`${level} with sandbox ${availability}`, () => {
      const placement = decideCodePlacement(level, availability)
      // Only strict refuses, and only when no sandbox can run.
      expect(placement.kind === 'refuse').toBe(level === 'strict' && availability === 'none')
      if (placement.kind === 'refuse') return expect(placement.reason).toBe('strict-needs-sandbox')

      // Never a sandbox that does not exist: the other sandbox only when it can run, the selected
      // runtime counts as a sandbox only when it is one.
      if (placement.runtime === 'sandbox') expect(availability).toBe('other')
      if (placement.sandboxed && placement.runtime === 'selected') expect(availability).toBe('selected')
      if (!placement.sandboxed) expect(placement.runtime).toBe('selected')

      // strict: always sandboxed, always read-only.
      if (level === 'strict') expect(placement).toMatchObject({ sandboxed: true, workspace: 'read-only' })
      // Everything else may write the workspace.
      if (level !== 'strict') expect(placement.workspace).toBe('writable')
      // standard: sandboxed whenever any sandbox can run; natively only when none can.
      if (level === 'standard') expect(placement.sandboxed).toBe(availability !== 'none')
      // trusted: exactly the runtime chosen for shell commands.
      if (level === 'trusted') expect(placement).toMatchObject({ runtime: 'selected', sandboxed: availability === 'selected' })
    })
  }

  // A sandbox is looked for (a probe that may take seconds) exactly for the levels that would use one.
  for (const level of CodeStrictnessSchema.options) {
    it(`${level} looks for a sandbox only if it would run in one`, () => {
      const other = decideCodePlacement(level, 'other')
      expect(looksForSandbox(level)).toBe(other.kind === 'run' && other.runtime === 'sandbox')
    })
  }
})
