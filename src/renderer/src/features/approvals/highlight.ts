/**
 * Where a preview field shows what made the risk engine ask: a finding's span points into the
 * tool argument `span.arg` (`args[arg].slice(start, end)`), and a preview field says which argument
 * it shows (`field.arg`). Pure, so it is unit-tested (test/unit/renderer/highlight.test.ts).
 *
 * The pieces always join back to exactly `field.value`: highlighting must never change, drop or
 * reorder a character of what will run.
 */
import type { RiskFinding, Verdict } from '../../../../shared/risk'

// Types only from shared/risk (a value import would pull zod into the renderer bundle).
const STRICTNESS: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 }
const stricter = (a: Verdict, b: Verdict): Verdict => (STRICTNESS[a] >= STRICTNESS[b] ? a : b)

export interface FieldPiece {
  text: string
  /** null: plain text. Otherwise the rules of every finding that covers this piece (sorted, unique). */
  rules: string[] | null
  /** The strictest verdict among those findings (null for plain text). */
  verdict: Verdict | null
}

interface Range {
  start: number
  end: number
  rules: Set<string>
  verdict: Verdict
}

/**
 * Splits `field.value` into plain and highlighted pieces. Only findings that ask or deny are
 * highlighted (an "allow" note is not a reason to look closer). When the field shows the argument
 * verbatim the exact span is marked; when it shows it transformed (a path made relative), the
 * whole value is. Overlapping spans are merged into one highlight.
 */
export function highlightField(
  field: { value: string; arg?: string },
  args: unknown,
  findings: readonly RiskFinding[]
): FieldPiece[] {
  const value = field.value
  const plain: FieldPiece[] = [{ text: value, rules: null, verdict: null }]
  if (!field.arg || value.length === 0) return plain
  const relevant = findings.filter((f) => f.verdict !== 'allow' && f.span !== null && f.span.arg === field.arg)
  if (relevant.length === 0) return plain

  const raw = isRecord(args) ? args[field.arg] : undefined
  const verbatim = typeof raw === 'string' && raw === value
  const ranges: Range[] = []
  for (const finding of relevant) {
    const span = finding.span!
    const start = verbatim ? clamp(span.start, value.length) : 0
    const end = verbatim ? clamp(span.end, value.length) : value.length
    if (end > start) ranges.push({ start, end, rules: new Set([finding.rule]), verdict: finding.verdict })
  }
  if (ranges.length === 0) return plain

  ranges.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: Range[] = []
  for (const range of ranges) {
    const last = merged[merged.length - 1]
    if (last && range.start < last.end) {
      last.end = Math.max(last.end, range.end)
      for (const rule of range.rules) last.rules.add(rule)
      last.verdict = stricter(last.verdict, range.verdict)
    } else {
      merged.push({ ...range, rules: new Set(range.rules) })
    }
  }

  const pieces: FieldPiece[] = []
  let at = 0
  for (const range of merged) {
    if (range.start > at) pieces.push({ text: value.slice(at, range.start), rules: null, verdict: null })
    pieces.push({ text: value.slice(range.start, range.end), rules: [...range.rules].sort(), verdict: range.verdict })
    at = range.end
  }
  if (at < value.length) pieces.push({ text: value.slice(at), rules: null, verdict: null })
  return pieces
}

function clamp(n: number, max: number): number {
  return Math.min(Math.max(0, Math.trunc(n)), max)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The rule an "Always allow" answer would save, as the user reads it, by how the tool's subject is
 * judged (its catalogue entry): a command rule's tokens are the command's words (`rm -rf build`),
 * a path rule's are path segments (`file_write notes/a.md`), any other is the tool and its token.
 */
export function alwaysRuleText(rule: { tool: string; match: readonly string[] }, subjectKind: string | undefined): string {
  if (subjectKind === 'command') return rule.match.join(' ')
  return `${rule.tool} ${rule.match.join(subjectKind === 'path' ? '/' : ' ')}`
}
