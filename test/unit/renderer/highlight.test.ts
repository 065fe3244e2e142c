import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { RiskFinding } from '../../../src/shared/risk'
import { alwaysRuleText, highlightField } from '../../../src/renderer/src/features/approvals/highlight'

const finding = (rule: string, start: number, end: number, verdict: RiskFinding['verdict'] = 'ask', arg = 'command'): RiskFinding => ({
  rule,
  message: `${rule} fired`,
  verdict,
  span: { arg, start, end }
})

const marked = (pieces: ReturnType<typeof highlightField>) => pieces.filter((p) => p.rules).map((p) => [p.text, p.rules])

describe('highlightField', () => {
  const command = 'rm -rf build'
  const field = { value: command, arg: 'command' }
  const args = { command }

  it('marks exactly the span that fired when the field shows the argument verbatim', () => {
    const pieces = highlightField(field, args, [finding('shell.writes', 0, 2)])
    expect(pieces).toEqual([
      { text: 'rm', rules: ['shell.writes'], verdict: 'ask' },
      { text: ' -rf build', rules: null, verdict: null }
    ])
  })

  it('merges overlapping spans, keeps the strictest verdict and every rule', () => {
    const text = 'rm -rf build && curl x | sh'
    const pieces = highlightField({ value: text, arg: 'command' }, { command: text }, [
      finding('shell.writes', 0, 2),
      finding('shell.critical', 0, 12, 'deny'),
      finding('shell.pipe-to-shell', 16, 27),
      finding('shell.network', 16, 20)
    ])
    expect(marked(pieces)).toEqual([
      ['rm -rf build', ['shell.critical', 'shell.writes']],
      ['curl x | sh', ['shell.network', 'shell.pipe-to-shell']]
    ])
    expect(pieces.find((p) => p.text === 'rm -rf build')!.verdict).toBe('deny')
    expect(pieces.map((p) => p.text).join('')).toBe(text)
  })

  it('keeps touching spans apart and ignores empty ones', () => {
    const pieces = highlightField(field, args, [finding('a', 0, 2), finding('b', 2, 6), finding('c', 7, 7)])
    expect(marked(pieces)).toEqual([
      ['rm', ['a']],
      [' -rf', ['b']]
    ])
  })

  it('highlights the whole value when the field shows the argument transformed (a relative path)', () => {
    const pieces = highlightField({ value: 'notes/.env', arg: 'path' }, { path: '/ws/notes/.env' }, [
      finding('path.sensitive', 0, 14, 'ask', 'path')
    ])
    expect(pieces).toEqual([{ text: 'notes/.env', rules: ['path.sensitive'], verdict: 'ask' }])
  })

  it('leaves fields alone that no finding points into, and ignores "allow" notes', () => {
    const plain = [{ text: command, rules: null, verdict: null }]
    expect(highlightField({ value: command }, args, [finding('x', 0, 2)])).toEqual(plain)
    expect(highlightField({ value: 'hello', arg: 'content' }, { content: 'hello' }, [finding('x', 0, 2)])).toEqual([
      { text: 'hello', rules: null, verdict: null }
    ])
    expect(highlightField(field, args, [finding('shell.line-continuation', 0, 2, 'allow')])).toEqual(plain)
    expect(highlightField(field, args, [{ rule: 'tool.shell', message: 'm', verdict: 'ask', span: null }])).toEqual(plain)
  })

  it('clamps spans that run past the value', () => {
    expect(marked(highlightField(field, args, [finding('x', 7, 99)]))).toEqual([['build', ['x']]])
  })

  it('never changes, drops or reorders a character (property)', () => {
    const arbFinding = (length: number) =>
      fc.record({
        rule: fc.constantFrom('a', 'b', 'c', 'd'),
        message: fc.constant('m'),
        verdict: fc.constantFrom('allow' as const, 'ask' as const, 'deny' as const),
        span: fc.option(
          fc.record({
            arg: fc.constantFrom('command', 'other'),
            start: fc.integer({ min: 0, max: length + 3 }),
            end: fc.integer({ min: 0, max: length + 3 })
          }),
          { nil: null }
        )
      })
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }).chain((value) =>
          fc.tuple(fc.constant(value), fc.boolean(), fc.array(arbFinding(value.length), { maxLength: 6 }))
        ),
        ([value, verbatim, findings]) => {
          const pieces = highlightField({ value, arg: 'command' }, { command: verbatim ? value : `/x/${value}` }, findings)
          expect(pieces.map((p) => p.text).join('')).toBe(value)
          expect(pieces.every((p) => p.text.length > 0 || value.length === 0)).toBe(true)
          // A character is marked exactly when an asking or denying finding covers it.
          const relevant = findings.filter((f) => f.verdict !== 'allow' && f.span?.arg === 'command')
          const expected = [...Array(value.length).keys()].map((i) =>
            relevant.some((f) => !verbatim || (i >= f.span!.start && i < f.span!.end))
          )
          const actual = pieces.flatMap((p) => Array<boolean>(p.text.length).fill(p.rules !== null))
          expect(actual).toEqual(expected)
        }
      )
    )
  })
})

describe('alwaysRuleText', () => {
  it('shows shell rules as the command and file rules as tool and path', () => {
    expect(alwaysRuleText({ tool: 'shell', match: ['rm', '-rf', 'build'] }, 'command')).toBe('rm -rf build')
    expect(alwaysRuleText({ tool: 'file_write', match: ['notes', 'plan.md'] }, 'path')).toBe('file_write notes/plan.md')
  })
})
