/**
 * The sink × provenance table (docs/risk.md, "Provenance"), walked cell by cell: every kind of sink
 * × {nothing untrusted, untrusted content entered, carries workspace data, carries secret data} ×
 * {destination the user named or not} × {readonly, supervised, full} → the verdict the provenance
 * findings add. The expectations are the table in docs/risk.md, written out here on their own.
 */
import { describe, expect, it } from 'vitest'
import type { Autonomy, Verdict } from '../../../src/shared'
import { provenanceFindings, type CallSink, type CarriedValue, type EnteredSource } from '../../../src/main/provenance'
import { strictest } from '../../../src/shared'
import { findingText } from '../../../src/renderer/src/i18n/findings'

const SINKS: Record<string, CallSink> = {
  none: { kind: 'none' },
  'send network': { kind: 'send', via: 'network', destination: 'https://dest.example/c' },
  'send navigation': { kind: 'send', via: 'navigation', destination: 'https://dest.example/p' },
  'send typing (no destination)': { kind: 'send', via: 'typing', destination: null },
  'send form (no destination)': { kind: 'send', via: 'form', destination: null },
  'send mcp': { kind: 'send', via: 'mcp', destination: 'notes-server' },
  'send send_text': { kind: 'send', via: 'send_text', destination: 'wechat:Alice' },
  'send device': { kind: 'send', via: 'device', destination: '/dev/ttyUSB0' },
  'send code': { kind: 'send', via: 'code', destination: null },
  'persist memory': { kind: 'persist', via: 'memory', target: 'memory' },
  'persist schedule': { kind: 'persist', via: 'schedule', target: 'schedule' },
  'persist delegate': { kind: 'persist', via: 'delegate', target: 'a sub-agent' },
  'persist run_file': { kind: 'persist', via: 'run_file', target: '.git/hooks/pre-commit' }
}
const STATES = ['clean', 'untrusted entered', 'carries workspace', 'carries secret'] as const
const AUTONOMY: Autonomy[] = ['readonly', 'supervised', 'full']
const PAGE: EnteredSource = { kind: 'web_page', name: 'https://attacker.example/page' }
const carriedOf = (origin: 'workspace' | 'secret'): CarriedValue[] => [{ arg: 'url', start: 0, end: 12, origin, from: origin === 'secret' ? '.env' : 'notes.md' }]

/** The table, as docs/risk.md says it. */
function expected(sink: CallSink, state: (typeof STATES)[number], named: boolean, autonomy: Autonomy, access: 'read' | 'execute', byUserChoice: boolean): Verdict {
  if (sink.kind === 'none') return 'allow'
  const hasDestination = sink.kind === 'persist' || sink.destination !== null
  const userNamed = named && hasDestination
  const ask = (full: Verdict): Verdict => (autonomy === 'full' ? full : 'ask')
  let verdict: Verdict = 'allow'
  // Secrets carried anywhere: asked, and refused at full autonomy.
  if (state === 'carries secret') verdict = ask('deny')
  // Workspace data to a destination the user did not name (or under a standing auto-approval): asked.
  else if (state === 'carries workspace' && (!userNamed || byUserChoice)) verdict = ask('allow')
  // After untrusted content entered (every state but 'clean'): asked, unless the user asked for this
  // destination by naming it or a standing choice of theirs allowed the call.
  else if (state !== 'clean' && !byUserChoice && !userNamed) verdict = ask('allow')
  // The read-only level asks before any read that persists instructions (memory_save).
  if (autonomy === 'readonly' && sink.kind === 'persist' && access === 'read') verdict = strictest([verdict, 'ask'])
  return verdict
}

const cells: Array<[string, (typeof STATES)[number], boolean, Autonomy, 'read' | 'execute', boolean]> = []
for (const sink of Object.keys(SINKS)) {
  for (const state of STATES) {
    for (const named of [false, true]) {
      for (const autonomy of AUTONOMY) {
        for (const access of ['read', 'execute'] as const) {
          for (const byUserChoice of SINKS[sink]!.kind === 'send' ? [false, true] : [false]) {
            cells.push([sink, state, named, autonomy, access, byUserChoice])
          }
        }
      }
    }
  }
}

describe('the sink × provenance table (issue 34, item 3)', () => {
  it('has every cell', () => {
    const sends = Object.values(SINKS).filter((sink) => sink.kind === 'send').length
    expect(cells.length).toBe((Object.keys(SINKS).length + sends) * STATES.length * 2 * AUTONOMY.length * 2)
  })

  it.each(cells)('%s, %s, user-named %s, %s, declared %s, auto-approved %s', (sinkName, state, named, autonomy, access, byUserChoice) => {
    const sink = SINKS[sinkName]!
    const findings = provenanceFindings({
      sink,
      access,
      autonomy,
      entered: state === 'clean' ? [] : [PAGE],
      carried: state === 'carries workspace' ? carriedOf('workspace') : state === 'carries secret' ? carriedOf('secret') : [],
      userNamed: () => named,
      allowedByUserChoice: byUserChoice
    })
    expect(strictest(findings.map((finding) => finding.verdict))).toBe(expected(sink, state, named, autonomy, access, byUserChoice))
    for (const finding of findings) {
      expect(finding.rule).toMatch(/^provenance\./)
      // Said in Chinese too, with every placeholder filled.
      const zh = findingText(finding.rule, 'zh-CN', finding.params)
      expect(zh).toMatch(/\p{Script=Han}/u)
      expect(zh).not.toMatch(/[{}]/)
      // Every finding says where the data came from or what was read, and where it goes.
      expect(finding.params?.destination).toBeTruthy()
      if (state !== 'clean' && finding.rule !== 'provenance.persist-readonly') expect(finding.message).toContain('attacker.example/page')
      if (finding.rule === 'provenance.carries-secret') expect(finding.message).toContain('.env')
      if (finding.rule === 'provenance.carries-workspace') expect(finding.span).toEqual({ arg: 'url', start: 0, end: 12 })
    }
  })

  it('says why in the user’s terms', () => {
    const [finding] = provenanceFindings({
      sink: { kind: 'send', via: 'network', destination: 'https://example.com/c?d=secret-plan-line' },
      access: 'read',
      autonomy: 'supervised',
      entered: [{ kind: 'web_page', name: 'https://example.com/page' }],
      carried: [0, 1, 2].map((i) => ({ arg: 'url', start: 26, end: 42 + i, origin: 'workspace' as const, from: 'notes.md' })),
      userNamed: () => false,
      allowedByUserChoice: false
    })
    expect(finding!.message).toBe(
      'After reading web page https://example.com/page, the model wants to send 3 values from the workspace (notes.md) to https://example.com/c?d=secret-plan-line, a destination you did not name.'
    )
  })
})
