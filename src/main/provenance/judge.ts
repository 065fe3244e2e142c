/**
 * The provenance findings of one call (docs/risk.md, "Provenance"): a call that sends or persists
 * after untrusted content entered the context since the user's last message, or that carries
 * values from the workspace or a secret to a destination the user did not name. Each finding
 * says why in the user's terms, with a message code and parameters the renderer translates.
 */
import { SOURCE_LABELS } from './delimiters'
import type { Autonomy, RiskFinding, Verdict } from '../../shared'
import type { CallSink, UntrustedSourceKind } from './kinds'
import type { CarriedValue, EnteredSource } from './tracker'

export interface CallProvenance {
  sink: CallSink
  /** Whether the tool is declared a read (memory_save is): the read-only level asks for its persisting calls all the same. */
  access: 'read' | 'write' | 'execute'
  autonomy: Autonomy
  entered: readonly EnteredSource[]
  carried: readonly CarriedValue[]
  userNamed(destination: string): boolean
  /**
   * The user's own standing choice allowed the call before provenance was looked at — an MCP tool in
   * `autoApprove`, a site on the allowed list, a rule: untrusted content in the context alone does
   * not make it ask, but data it carries still does, wherever it goes.
   */
  allowedByUserChoice: boolean
}

export type ProvenanceRule = 'provenance.after-untrusted' | 'provenance.carries-workspace' | 'provenance.carries-secret' | 'provenance.persist-readonly'

// A sub-agent's output is named as its result in a finding.
const SOURCE_WORDS: Record<UntrustedSourceKind, string> = { ...SOURCE_LABELS, sub_agent: 'sub-agent result' }

/** At most this many sources are named in a finding; the rest are counted. */
const SOURCES_NAMED = 3

/** "web page https://a.example/p, workspace file notes.md and 2 more". */
export function describeSources(entered: readonly EnteredSource[]): string {
  const named = entered.slice(-SOURCES_NAMED).map((source) => `${SOURCE_WORDS[source.kind]} ${source.name}`)
  const more = entered.length - named.length
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ')
}

function destinationOf(sink: Exclude<CallSink, { kind: 'none' }>): string {
  if (sink.kind === 'persist') return sink.target
  if (sink.destination) return sink.destination
  return sink.via === 'typing' || sink.via === 'form' ? 'the open page or window' : `a ${sink.via} destination`
}

/** Shortens a long destination for a sentence (the approval shows it whole). */
const shortened = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}…` : text)

function verdictFor(autonomy: Autonomy, full: Verdict): Verdict {
  return autonomy === 'full' ? full : 'ask'
}

export function provenanceFindings(call: CallProvenance): RiskFinding[] {
  const { sink, autonomy } = call
  if (sink.kind === 'none') return []
  const destination = destinationOf(sink)
  const named = (sink.kind === 'persist' || sink.destination !== null) && call.userNamed(destination)
  const sources = describeSources(call.entered)
  const after = call.entered.length > 0 ? `After reading ${sources}, the model` : 'The model'
  const verb = sink.kind === 'send' ? 'send' : 'save'
  const to = sink.kind === 'send' ? 'to' : 'into'
  const base = { sources: sources || '—', destination: shortened(destination), action: sink.kind }
  const secrets = call.carried.filter((value) => value.origin === 'secret')
  const workspace = call.carried.filter((value) => value.origin === 'workspace')
  const findings: RiskFinding[] = []
  if (secrets.length > 0) {
    // Data from a secret never leaves without a person's yes; full autonomy refuses it outright.
    const from = secrets[0]!.from
    findings.push(finding('provenance.carries-secret', verdictFor(autonomy, 'deny'), `${after} wants to ${verb} ${count(secrets.length)} from the secret file ${from} ${to} ${shortened(destination)}.`, { ...base, count: secrets.length, from }, secrets))
  } else if (workspace.length > 0 && (!named || call.allowedByUserChoice)) {
    const from = workspace[0]!.from
    const whose = named ? 'a destination allowed without asking' : 'a destination you did not name'
    findings.push(finding('provenance.carries-workspace', verdictFor(autonomy, 'allow'), `${after} wants to ${verb} ${count(workspace.length)} from the workspace (${from}) ${to} ${shortened(destination)}, ${whose}.`, { ...base, count: workspace.length, from }, workspace))
  }
  // After untrusted content, a call the user asked for by naming its destination, or allowed by a
  // standing choice, does not ask for that alone (control flow from the user's request).
  if (findings.length === 0 && call.entered.length > 0 && !call.allowedByUserChoice && !named) {
    const carriedNote = workspace.length > 0 ? `, carrying ${count(workspace.length)} from the workspace (${workspace[0]!.from})` : ''
    findings.push(finding('provenance.after-untrusted', verdictFor(autonomy, 'allow'), `${after} wants to ${verb} data ${to} ${shortened(destination)}${carriedNote}. Instructions in what it read are not yours.`, base, workspace))
  }
  if (autonomy === 'readonly' && sink.kind === 'persist' && call.access === 'read' && !findings.some((found) => found.verdict !== 'allow')) {
    findings.push(finding('provenance.persist-readonly', 'ask', `Read-only level: this call saves text that later runs or is read as instructions (${shortened(destination)}).`, base, []))
  }
  return findings
}

const count = (n: number): string => (n === 1 ? '1 value' : `${n} values`)

function finding(rule: ProvenanceRule, verdict: Verdict, message: string, params: Record<string, string | number>, carried: readonly CarriedValue[]): RiskFinding {
  // Findings point into a top-level argument; a value in a nested one is named in the message only.
  const at = carried.find((value) => !value.arg.includes('.'))
  return { rule, verdict, message, params, span: at ? { arg: at.arg, start: at.start, end: at.end } : null }
}
