import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { RiskEngine, fromRules, type RuleSet } from '../../../src/main/risk'
import { isStricterOrEqual, stricter, type RiskRule, type Verdict } from '../../../src/shared'
import { shellCases } from './shell-cases'

/**
 * Properties of the policy (docs/risk.md): strictest wins, so adding a deny rule never loosens
 * a decision, rule order never matters, and chaining never hides the stricter part.
 */
const SEED = 20261122
let engine: RiskEngine
let workspace: string
const home = '/home/tester'

beforeAll(async () => {
  engine = await RiskEngine.create({ home })
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-props-'))
})

/** Commands that stand on their own on one line: no comments, heredocs or continuations to swallow a neighbour. */
const standalone = [...new Set(shellCases.map((c) => c.command))].filter(
  (c) => !/[#\n\\]|<<|&\s*$|^\s*$/.test(c) && !/["'`]/.test(c.replace(/"[^"]*"|'[^']*'/g, ''))
)
const commandArb = fc.constantFrom(...standalone)

function verdictOf(command: string, rules: RuleSet | null): Verdict {
  engine.setRules(rules ?? fromRules([], 'user'))
  return engine.assessShell(command, { workspace, autonomy: 'supervised' }).verdict
}

/** Rules built from the command's own words, so they actually match sometimes. */
function ruleArb(command: string): fc.Arbitrary<RiskRule> {
  const words = command.split(/\s+/).filter(Boolean)
  const token = fc.constantFrom(...words, '*', 'ls', 'rm', 'git')
  return fc.record({
    tool: fc.constant('shell'),
    match: fc.array(token, { minLength: 1, maxLength: 4 }),
    decision: fc.constantFrom<Verdict>('allow', 'ask', 'deny')
  })
}

const withRules = commandArb.chain((command) =>
  fc.tuple(fc.constant(command), fc.array(ruleArb(command), { maxLength: 5 }), ruleArb(command))
)

describe('risk policy properties', () => {
  it('the pool of standalone commands is big enough to mean something', () => {
    expect(standalone.length).toBeGreaterThan(300)
  })

  it('adding a deny (or ask) rule never makes a decision more permissive', () => {
    fc.assert(
      fc.property(withRules, ([command, rules, extra]) => {
        const before = verdictOf(command, fromRules(rules, 'user'))
        for (const decision of ['deny', 'ask'] as const) {
          const after = verdictOf(command, fromRules([...rules, { ...extra, decision }], 'user'))
          expect(isStricterOrEqual(after, before), `${command} with +${decision} ${extra.match.join(' ')}`).toBe(true)
        }
      }),
      { seed: SEED, numRuns: 400 }
    )
  })

  it('a matching deny rule always denies', () => {
    fc.assert(
      fc.property(commandArb, (command) => {
        const program = engine.assessShell(command, { workspace, autonomy: 'supervised' }).programs.find((p) => p !== '?')
        fc.pre(program !== undefined)
        const verdict = verdictOf(command, fromRules([{ tool: 'shell', match: [program!, '*'], decision: 'deny' }], 'user'))
        // The rule matches the program's own invocation: unless that program only appears as a wrapper.
        expect(['deny', 'ask']).toContain(verdict)
      }),
      { seed: SEED, numRuns: 200 }
    )
  })

  it('rule order never changes a decision', () => {
    fc.assert(
      fc.property(
        withRules.chain(([command, rules]) => fc.tuple(fc.constant(command), fc.constant(rules), fc.shuffledSubarray(rules, { minLength: rules.length }))),
        ([command, rules, shuffled]) => {
          expect(verdictOf(command, fromRules(shuffled, 'user'))).toBe(verdictOf(command, fromRules(rules, 'user')))
        }
      ),
      { seed: SEED, numRuns: 400 }
    )
  })

  it.each(['&&', ';', '|', '||'])('A %s B is never more permissive than the stricter of A and B', (operator) => {
    fc.assert(
      fc.property(commandArb, commandArb, (a, b) => {
        const parts = stricter(verdictOf(a, null), verdictOf(b, null))
        const chained = verdictOf(`${a} ${operator} ${b}`, null)
        expect(isStricterOrEqual(chained, parts), `${a} ${operator} ${b}: ${chained} < ${parts}`).toBe(true)
      }),
      { seed: SEED, numRuns: 500 }
    )
  })

  it('an allow rule never lifts the critical catalogue or obfuscation', () => {
    const allowRm: RiskRule[] = [{ tool: 'shell', match: ['rm', '*'], decision: 'allow' }]
    expect(verdictOf('rm -rf build', fromRules(allowRm, 'user'))).toBe('allow')
    expect(verdictOf('rm -rf ~', fromRules(allowRm, 'user'))).toBe('deny')
    expect(verdictOf("r''m -rf build", fromRules(allowRm, 'user'))).toBe('ask')
    expect(verdictOf('sudo rm -rf build', fromRules(allowRm, 'user'))).toBe('ask')
    expect(verdictOf('rm -rf build > ~/.bashrc', fromRules(allowRm, 'user'))).toBe('ask')
  })
})
