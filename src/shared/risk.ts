/**
 * The risk engine's verdicts as every side sees them (docs/risk.md): the loop acts on them, the
 * approval modal shows them, the audit log keeps them, `deskclaw risk` prints them.
 */
import { z } from 'zod'

/** allow: run; ask: needs the user; deny: never runs (the model is told why). Ordered by strictness. */
export const VerdictSchema = z.enum(['allow', 'ask', 'deny'])
export type Verdict = z.infer<typeof VerdictSchema>

const STRICTNESS: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 }

/** The stricter of two verdicts (deny > ask > allow): how every combination in the engine works. */
export function stricter(a: Verdict, b: Verdict): Verdict {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b
}

export function strictest(verdicts: Iterable<Verdict>): Verdict {
  let result: Verdict = 'allow'
  for (const verdict of verdicts) result = stricter(result, verdict)
  return result
}

export function isStricterOrEqual(a: Verdict, b: Verdict): boolean {
  return STRICTNESS[a] >= STRICTNESS[b]
}

/** Where a finding fired: UTF-16 offsets [start, end) into the string argument `arg` of the call. */
export const RiskSpanSchema = z.object({
  arg: z.string(),
  start: z.number().int().min(0),
  end: z.number().int().min(0)
})
export type RiskSpan = z.infer<typeof RiskSpanSchema>

export const RiskFindingSchema = z.object({
  /** Stable id, e.g. `shell.critical.rm-root`, `path.sensitive`, `rule.user`. */
  rule: z.string(),
  message: z.string(),
  /** What this finding alone asks for; the call's verdict is the strictest of them. */
  verdict: VerdictSchema,
  span: RiskSpanSchema.nullable(),
  /** Values for the rule's translated text (`{destination}`), where the message names them (provenance findings). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional()
})
export type RiskFinding = z.infer<typeof RiskFindingSchema>

/** A user or project rule: `match` is a list of normalised tokens; `*` matches any rest. */
export const RiskRuleSchema = z.object({
  tool: z.string().min(1),
  match: z.array(z.string().min(1)).min(1),
  decision: VerdictSchema,
  /** Commands (for shell) the rule must match / must not match; checked when the rules load. */
  examples: z
    .object({ match: z.array(z.string()).optional(), notMatch: z.array(z.string()).optional() })
    .optional(),
  why: z.string().optional()
})
export type RiskRule = z.infer<typeof RiskRuleSchema>

export const RiskAssessmentSchema = z.object({
  verdict: VerdictSchema,
  findings: z.array(RiskFindingSchema),
  /** The narrow rule "always allow" would save, or null when the call may not be saved (why in alwaysBlockedReason). */
  alwaysRule: RiskRuleSchema.nullable(),
  alwaysBlockedReason: z.string().optional(),
  /** The same reason as a code the renderer translates (alwaysBlockedReason is the English text). */
  alwaysBlocked: z
    .object({ code: z.enum(['always.single-only', 'always.runs-other-code']), program: z.string().optional() })
    .optional()
})
export type RiskAssessment = z.infer<typeof RiskAssessmentSchema>
