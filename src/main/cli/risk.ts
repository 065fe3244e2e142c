import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { RiskFinding } from '../../shared'
import { PROJECT_RULES_FILE, USER_RULES_FILE, defaultDataDir } from '../app'
import { RiskEngine, fromRules, mergeRuleSets, principleOf, readRuleFile, type RuleSet, type ShellAssessment } from '../risk'
import { describeEntry } from '../risk/shell/spec'
import { DATABASE_FILE_NAME, SqliteConversationStore } from '../store'
import { parseRiskArgs, type RiskArgs } from './args'
import { EXIT, MAIN_HELP } from './help'

export function riskMain(argv: string[]): Promise<number> {
  const args = parseRiskArgs(argv)
  return riskCommand(args, args.dataDir ?? defaultDataDir())
}

/**
 * `deskclaw risk`: how the engine judges a shell command, with the same rules the app uses
 * (the user's rules file, the project's, and rules saved by "always allow").
 */
export async function riskCommand(args: RiskArgs, dataDir: string): Promise<number> {
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const engine = await RiskEngine.create({ home: homedir(), rules: loadRules(dataDir, args.workspace) })
  for (const warning of engine.ruleSet.warnings) process.stderr.write(`deskclaw: ${warning}\n`)
  for (const error of engine.ruleSet.errors) process.stderr.write(`deskclaw: rules not loaded (every command asks): ${error}\n`)
  const judge = (command: string): string => {
    const assessment = engine.assessShell(command, { workspace: args.workspace, autonomy: args.autonomy, shell: args.shell })
    return args.json ? toJsonLine(command, assessment, args.explain) : toHuman(command, assessment, args.explain)
  }
  if (!args.stdin) {
    process.stdout.write(judge(args.command ?? ''))
    return EXIT.done
  }
  // One line in, one line out, in order, as each arrives (a pipe can stream commands).
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (const line of lines) process.stdout.write(judge(line))
  return EXIT.done
}

function loadRules(dataDir: string, workspace: string): RuleSet {
  const sets = [readRuleFile(join(dataDir, USER_RULES_FILE), 'user'), readRuleFile(join(workspace, PROJECT_RULES_FILE), 'project')]
  const database = join(dataDir, DATABASE_FILE_NAME)
  if (existsSync(database)) {
    const store = SqliteConversationStore.open(database)
    try {
      sets.push(fromRules(store.listApprovalRules(), 'saved', 'saved approvals'))
    } finally {
      store.close()
    }
  }
  return mergeRuleSets(...sets)
}

function toJsonLine(command: string, assessment: ShellAssessment, explain: boolean): string {
  const findings = assessment.findings.map((f) => ({
    rule: f.rule,
    message: f.message,
    span: f.span ? { start: f.span.start, end: f.span.end } : null,
    ...(explain ? { verdict: f.verdict, principle: principleOf(f.rule) } : {})
  }))
  // The line's shape is a contract (one object per line with `verdict`); --explain only adds fields.
  return `${JSON.stringify({ command, verdict: assessment.verdict, findings, ...(explain ? { explain: assessment.explain } : {}) })}\n`
}

function toHuman(command: string, assessment: ShellAssessment, explain: boolean): string {
  const lines = [`${assessment.verdict.toUpperCase()}  ${command}`]
  for (const finding of assessment.findings) {
    lines.push(...describeFinding(command, finding))
    const principle = explain ? principleOf(finding.rule) : null
    if (principle) lines.push(`        principle: ${principle}`)
  }
  if (assessment.alwaysRule) lines.push(`  "always allow" would save: ${assessment.alwaysRule.match.join(' ')}`)
  else if (assessment.alwaysBlockedReason) lines.push(`  cannot be allowed always: ${assessment.alwaysBlockedReason}`)
  if (explain) {
    const { cwds, globs, targets, specs } = assessment.explain
    // The spec entry (program, subcommand, options) that let each known-safe program through (docs/risk.md, "Program specs").
    for (const entry of specs) lines.push(`  allowed by spec: ${describeEntry(entry)}`)
    lines.push(`  working directory: ${cwds.join(', then ')}`)
    for (const glob of globs) lines.push(`  glob ${glob.pattern} → ${glob.matches === null ? 'no match (judged as written)' : glob.matches.join(' ')}`)
    lines.push(`  target set: ${targets.length > 0 ? targets.join(' ') : '(no paths)'}`)
  }
  return `${lines.join('\n')}\n`
}

/** A finding, with a caret line under the part of a one-line command that fired it. */
function describeFinding(command: string, finding: RiskFinding): string[] {
  const out = [`  ${finding.verdict.padEnd(5)} ${finding.rule}: ${finding.message}`]
  const span = finding.span
  if (span && span.end > span.start && !command.includes('\n')) {
    out.push(`        ${command}`, `        ${' '.repeat(span.start)}${'^'.repeat(Math.max(1, span.end - span.start))}`)
  }
  return out
}
