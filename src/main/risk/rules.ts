import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { RiskRuleSchema, errorMessage, type RiskRule } from '../../shared'

/**
 * User and project rules (docs/risk.md): `{tool, match, decision}` on normalised tokens, never on raw
 * text prefixes. `*` matches one token; a trailing `*` matches any rest, including nothing.
 */
export type RuleSource = 'user' | 'project' | 'saved'

export interface LoadedRule extends RiskRule {
  source: RuleSource
}

export interface RuleSet {
  rules: LoadedRule[]
  /** Problems that make the rules untrustworthy: every call asks until they are fixed (fail closed). */
  errors: string[]
  /** Rules that were skipped on purpose (a project file may only tighten). */
  warnings: string[]
}

export const emptyRuleSet = (): RuleSet => ({ rules: [], errors: [], warnings: [] })

const RuleFileSchema = z.object({ rules: z.array(RiskRuleSchema) })

export function matchesTokens(pattern: readonly string[], tokens: ReadonlyArray<string | null>): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const token = pattern[i]!
    if (token === '*' && i === pattern.length - 1) return tokens.length >= i
    if (i >= tokens.length) return false
    if (token !== '*' && tokens[i] !== token) return false
  }
  return tokens.length === pattern.length
}

/**
 * Reads one rules file. A missing file is no rules; an unreadable or invalid one is an error
 * (never an empty policy: that would silently drop the user's deny rules).
 */
export function readRuleFile(path: string, source: RuleSource): RuleSet {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyRuleSet()
    return { rules: [], errors: [`${path}: ${errorMessage(error)}`], warnings: [] }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { rules: [], errors: [`${path}: not valid JSON (${errorMessage(error)})`], warnings: [] }
  }
  const result = RuleFileSchema.safeParse(parsed)
  if (!result.success) {
    const issue = result.error.issues[0]
    return { rules: [], errors: [`${path}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid rules'}`], warnings: [] }
  }
  return fromRules(result.data.rules, source, path)
}

export function fromRules(rules: RiskRule[], source: RuleSource, origin: string = source): RuleSet {
  const set = emptyRuleSet()
  for (const rule of rules) {
    // A project folder is written by whoever wrote the project (or by the agent): it may only tighten.
    if (source === 'project' && rule.decision === 'allow') {
      set.warnings.push(`${origin}: ignored an allow rule for ${rule.tool} "${rule.match.join(' ')}" (project rules may only ask or deny)`)
      continue
    }
    set.rules.push({ ...rule, source })
  }
  return set
}

export function mergeRuleSets(...sets: RuleSet[]): RuleSet {
  return {
    rules: sets.flatMap((s) => s.rules),
    errors: sets.flatMap((s) => s.errors),
    warnings: sets.flatMap((s) => s.warnings)
  }
}
