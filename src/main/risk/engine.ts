import { realpathSync } from 'node:fs'
import {
  errorMessage,
  strictest,
  type Autonomy,
  type RiskAssessment,
  type RiskFinding,
  type RiskRule,
  type Verdict
} from '../../shared'
import { confineToWorkspace } from '../workspace'
import { gitConfigRisk, gitConfigSecret } from './git-config'
import { secretContentReason } from './secret-files'
import { fileObjectFinding, judgePath, normalise, protectedWriteReason, secretPathReason, startPathJudgement } from './paths'
import { CMD_SPECS, cmdStatements } from './shell/cmd'
import { matchSpec, type SpecEntry } from './shell/spec'
import { unquote, windowsHit, windowsProgramName } from './shell/windows'
import { emptyRuleSet, matchesTokens, type LoadedRule, type RuleSet } from './rules'
import { ShellAnalyzer, type ShellExplanation, type ShellFinding, type ShellUnit } from './shell/analyzer'
import { loadBashParser } from './shell/parser'
import { INTERPRETERS, SHELLS, WRAPPERS, interpreterName } from './shell/programs'
import { parseHttpUrl, ruleNamesHost, UrlGuardian } from './url-guardian'
import { SHELL_SUBJECT, type RiskSubjectKind, type ToolAccess, type ToolCategory } from './vocabulary'

export interface RiskContext {
  workspace: string
  autonomy: Autonomy
  /**
   * Commands run without an OS sandbox (the native runtime). `full` then still asks for what
   * `supervised` would ask for shell commands: nothing bounds the damage if the engine is wrong.
   */
  unsandboxed?: boolean
  /** The shell that will read a command line: `cmd` on native Windows. Default `sh` (bash's rules). */
  shell?: 'sh' | 'cmd'
}

/** What a call is judged on: the tool's declared domain, access and subject (docs/risk.md); never its name. */
export interface ToolCallToAssess {
  tool: string
  category: ToolCategory
  access: ToolAccess
  subject: RiskSubject | null
  /** A read the tool says asks anyway (a setting such as "screenshots ask"). */
  asksFirst?: boolean
  /** Asks even in full autonomy (ToolDefinition.asksAlways). */
  asksAlways?: boolean
  /** This call runs outside any OS sandbox (ToolDefinition.runsUnsandboxed): full autonomy still asks. */
  unsandboxed?: boolean
}

export interface RiskSubject {
  kind: RiskSubjectKind
  value: string
  /** The argument the value came from: findings point into it. */
  arg?: string
}

/** Which tool and argument a command's rules and spans belong to (the shell tool's, unless said otherwise). */
export interface CommandSubject {
  tool: string
  arg: string
}

export interface RiskEngineOptions {
  home: string
  rules?: RuleSet
  /** How a tool's subject is judged, for reading rule examples (the registry knows; default: the shell tool's commands). */
  subjectKindOf?: (tool: string) => RiskSubjectKind | undefined
  /** How URL subjects are judged (domain rules from Settings, resolutions made for the judgement). */
  urls?: UrlGuardian
}

export interface ShellAssessment extends RiskAssessment {
  /** Programs the engine considered, as bare names (the execution oracle checks against these). */
  programs: string[]
  /** Working folders, glob matches and targets the judgement rests on (`deskclaw risk --explain`). */
  explain: ShellExplanation
}

/** Saved "always" rules may never be this broad (Codex BANNED_PREFIX_SUGGESTIONS, OpenClaw strictInlineEval). */
const NEVER_SAVED = new Set(['eval', 'source', '.', 'exec', 'xargs', 'find', ...SHELLS, ...WRAPPERS.keys(), ...INTERPRETERS.keys()])

/**
 * The risk engine (docs/risk.md): (tool, args, context) → verdict with findings. Strictest wins:
 * every finding and every matching rule can only make the verdict stricter, except that a user
 * allow rule for a program waives that program's own "not on the read-only list" finding — never
 * findings about structure, obfuscation, privileges, redirects, secrets or the critical catalogue.
 */
export class RiskEngine {
  private rules: RuleSet = emptyRuleSet()
  private readonly realWorkspaces = new Map<string, string>()

  private constructor(
    private readonly analyzer: ShellAnalyzer,
    private readonly home: string,
    private readonly subjectKindOf: (tool: string) => RiskSubjectKind | undefined,
    private readonly urls: UrlGuardian
  ) {}

  static async create(options: RiskEngineOptions): Promise<RiskEngine> {
    const subjectKindOf = options.subjectKindOf ?? ((tool: string) => (tool === SHELL_SUBJECT.tool ? 'command' : undefined))
    const engine = new RiskEngine(new ShellAnalyzer(await loadBashParser()), options.home.replace(/\/+$/, '') || '/', subjectKindOf, options.urls ?? new UrlGuardian())
    if (options.rules) engine.setRules(options.rules)
    return engine
  }

  /** Installs rules after checking each rule's examples; a rule that fails them makes every call ask. */
  setRules(rules: RuleSet): void {
    const errors = [...rules.errors]
    for (const rule of rules.rules) {
      for (const example of rule.examples?.match ?? []) {
        if (!this.exampleTokens(rule.tool, example).some((tokens) => matchesTokens(rule.match, tokens))) {
          errors.push(`rule ${rule.tool} "${rule.match.join(' ')}" should match "${example}" but does not`)
        }
      }
      for (const example of rule.examples?.notMatch ?? []) {
        if (this.exampleTokens(rule.tool, example).some((tokens) => matchesTokens(rule.match, tokens))) {
          errors.push(`rule ${rule.tool} "${rule.match.join(' ')}" should not match "${example}" but does`)
        }
      }
    }
    this.rules = { ...rules, errors }
  }

  /** How a rule sees an example: a command's programs after unwrapping, a path's segments, or one token. */
  private exampleTokens(tool: string, example: string): Array<Array<string | null>> {
    const kind = this.subjectKindOf(tool)
    if (kind === 'path') return [example.split('/').filter((part) => part !== '' && part !== '.')]
    if (kind === 'url') {
      // A URL rule matches the host: an example may be a whole URL (docs/risk.md, "Network").
      const parsed = parseHttpUrl(example)
      return [[parsed.ok ? parsed.host : example]]
    }
    if (kind !== 'command') return [[example]]
    const analysis = this.analyzer.analyze(example, { home: this.home, workspace: '/', cwd: '/' })
    return analysis.units.map((unit) => unit.argv)
  }

  get ruleSet(): RuleSet {
    return this.rules
  }

  assess(call: ToolCallToAssess, ctx: RiskContext): RiskAssessment {
    return this.judge(call, ctx).assessment
  }

  /**
   * The assessment, with the file-system targets it rested on (canonical paths): the runner binds an
   * approval to their identities and judges again just before the call runs (docs/risk.md, "At run time").
   */
  judge(call: ToolCallToAssess, ctx: RiskContext): { assessment: RiskAssessment; targets: string[] } {
    startPathJudgement()
    const { subject } = call
    if (subject?.kind === 'command') {
      const { programs: _programs, explain, ...assessment } = this.assessShell(subject.value, ctx, { tool: call.tool, arg: subject.arg ?? '' })
      return { assessment, targets: explain.targets }
    }
    const targets: string[] = []
    const workspace = this.realWorkspace(ctx.workspace)
    const findings: RiskFinding[] = []
    const unitFindings: RiskFinding[] = []
    const reads = call.access === 'read'
    let tokens: string[] = subject ? [subject.value] : []
    let savable = subject !== null
    if (subject?.kind === 'path') {
      const span = subject.arg ? { arg: subject.arg, start: 0, end: subject.value.length } : null
      try {
        const confined = confineToWorkspace(workspace, subject.value)
        targets.push(confined.absolute)
        tokens = confined.display === '.' ? [] : confined.display.split('/')
        const ctxPaths = { home: this.home, workspace }
        const secret = reads ? secretPathReason(confined.absolute, ctxPaths) : protectedWriteReason(confined.absolute, ctxPaths)
        if (secret) findings.push({ rule: 'path.sensitive', message: `${secret}.`, verdict: 'ask', span })
        // Secrets by content (docs/risk.md, "Secrets"): a read of a file whose name says nothing but whose text holds a credential.
        const content = reads && !secret ? secretContentReason(confined.absolute, { anyFile: true }) : null
        if (content) findings.push({ rule: 'path.secret-content', message: `${confined.display} ${content}.`, verdict: 'ask', span })
        const object = fileObjectFinding(confined.absolute, ctxPaths)
        if (object) findings.push({ ...object, verdict: 'ask', span })
      } catch (error) {
        findings.push({ rule: 'path.outside-workspace', message: errorMessage(error), verdict: 'deny', span })
      }
      savable = findings.length === 0
    }
    if (subject?.kind === 'url') {
      // The URL guardian (docs/risk.md, "Network"); a rule for the host waives only "a site not yet allowed".
      const span = subject.arg ? { arg: subject.arg, start: 0, end: subject.value.length } : null
      const judged = this.urls.judge(subject.value, span, (host) => ruleNamesHost(this.rules.rules, call.tool, host))
      findings.push(...judged.findings)
      if (reads) unitFindings.push(...judged.waivable)
      tokens = judged.host ? [judged.host] : []
      savable = reads && judged.host !== null && judged.findings.length === 0
    }
    if (!reads || call.asksFirst) {
      // A URL call that is not a read (a request that may change something) asks whatever the rules say.
      const access = { rule: accessRule(call), message: accessMessage(call), verdict: 'ask' as const, span: null }
      if (subject?.kind === 'url' && !reads) findings.push(access)
      else unitFindings.push(access)
    }
    if (call.asksAlways) findings.push({ rule: ASKS_ALWAYS_RULE, message: `${call.tool} always asks: it sets up something that acts later without you.`, verdict: 'ask', span: null })
    if (call.unsandboxed) findings.push({ rule: UNSANDBOXED_RULE, message: `${call.tool} runs this call directly on this computer: no sandbox can run it.`, verdict: 'ask', span: null })
    const unit = { argv: tokens, findings: unitFindings }
    return { assessment: this.finish(call.tool, findings, [unit], ctx, savable && !call.asksAlways ? tokens : null), targets }
  }

  /** The home folder whose secrets the path guardian protects (paths in findings are shown from it). */
  get homeFolder(): string {
    return this.home
  }

  /** Judges a shell command line; its rules and spans belong to `as` (the shell tool's, unless said otherwise). */
  assessShell(command: string, ctx: RiskContext, as: CommandSubject = SHELL_SUBJECT): ShellAssessment {
    const workspace = this.realWorkspace(ctx.workspace)
    startPathJudgement(workspace)
    if (ctx.shell === 'cmd') return this.assessCmd(command, ctx, as, workspace)
    const analysis = this.analyzer.analyze(command, { home: this.home, workspace, cwd: workspace, gitConfigRisk: (dir) => gitConfigRisk(dir), gitConfigSecret: (dir) => gitConfigSecret(dir) })
    const toFinding = (f: ShellFinding): RiskFinding => ({
      rule: f.rule,
      message: f.message,
      verdict: f.verdict,
      span: { arg: as.arg, start: f.start, end: Math.max(f.start, f.end) }
    })
    const findings = dedupe(analysis.findings.map(toFinding))
    const units = analysis.units.map((u: ShellUnit) => ({ argv: u.argv, layers: u.layers, findings: u.findings.map(toFinding), start: u.start, end: u.end }))
    const single = units.length === 1 && findings.every((f) => f.verdict === 'allow') ? units[0]! : null
    const savable = single && single.argv.every((t): t is string => t !== null) ? (single.argv as string[]) : null
    // Name the program that can never be saved, even when other reasons apply too.
    const unsavable = units.map((u) => u.argv[0]).find((p): p is string => typeof p === 'string' && isNeverSaved(p))
    const assessment = this.finish(as.tool, findings, units, { ...ctx, command: as.arg }, unsavable ? [unsavable] : savable)
    return { ...assessment, programs: analysis.programs, explain: analysis.explain }
  }

  /**
   * A line for cmd.exe: split where cmd splits it; the Windows catalogue judges each statement, cmd's
   * read-only commands run, a statement in plain words (no `%`, `^`, quotes or redirections) is judged
   * by the shell analysis (their words mean the same there), and anything else asks.
   */
  private assessCmd(command: string, ctx: RiskContext, as: CommandSubject, workspace: string): ShellAssessment {
    const findings: RiskFinding[] = []
    const units: Array<{ argv: Array<string | null>; findings: RiskFinding[]; start: number; end: number }> = []
    const programs: string[] = []
    const specs: SpecEntry[] = []
    const span = (start: number, end: number) => ({ arg: as.arg, start, end })
    for (const statement of cmdStatements(command)) {
      const program = windowsProgramName(statement.tokens[0] ?? '')
      programs.push(program)
      const hit = windowsHit(statement.tokens)
      if (hit?.verdict === 'deny') {
        findings.push({ rule: hit.rule, message: hit.message, verdict: 'deny', span: span(statement.start, statement.end) })
        continue
      }
      const spec = CMD_SPECS.get(program)
      const match = spec && !/[<>%]/.test(statement.text) ? matchSpec(program, spec, statement.tokens.slice(1).map(unquote)) : null
      if (spec && match && !match.ok) {
        findings.push({ rule: 'shell.unknown-option', message: `${match.why}.`, verdict: 'ask', span: span(statement.start, statement.end) })
        units.push({ argv: statement.tokens, findings: [], start: statement.start, end: statement.end })
        continue
      }
      if (spec && match?.ok) {
        specs.push(match.entry)
        const reads = spec.reads
        for (const [k, token] of statement.tokens.slice(1).entries()) {
          // Secret-shaped words ask even where nothing is read (as on the bash side); a pattern is not a path.
          if (token.startsWith('/') || (spec.patternFirst && k === 0)) continue
          const paths = { home: this.home, workspace }
          const { finding } = judgePath(normalise(unquote(token), paths, workspace), paths, { writes: false, reads })
          if (finding) findings.push({ ...finding, verdict: 'ask', span: span(statement.start, statement.end) })
        }
        units.push({ argv: statement.tokens, findings: [], start: statement.start, end: statement.end })
        continue
      }
      if (!hit && /^[\w ./:=,+@-]+$/.test(statement.text)) {
        const inner = this.assessShell(statement.text, { ...ctx, shell: 'sh' }, as)
        for (const f of inner.findings) findings.push({ ...f, span: f.span ? span(statement.start + f.span.start, statement.start + f.span.end) : null })
        units.push({ argv: [], findings: [], start: statement.start, end: statement.end })
        continue
      }
      findings.push({
        rule: hit?.rule ?? 'shell.windows',
        message: hit?.message ?? `cmd.exe runs "${statement.tokens[0]}" with its own syntax; it is not on the read-only list.`,
        verdict: 'ask',
        span: span(statement.start, statement.end)
      })
    }
    if (findings.length === 0 && units.length === 0) {
      findings.push({ rule: 'shell.empty', message: 'No command was found in the text.', verdict: 'ask', span: null })
    }
    const assessment = this.finish(as.tool, dedupe(findings), units, { ...ctx, command: as.arg }, null)
    return { ...assessment, programs, explain: { cwds: [workspace], globs: [], targets: [], specs } }
  }

  private finish(
    tool: string,
    findings: RiskFinding[],
    units: Array<{ argv: Array<string | null>; layers?: Array<Array<string | null>>; findings: RiskFinding[]; start?: number; end?: number }>,
    ctx: RiskContext & { command?: string },
    savableTokens: string[] | null
  ): RiskAssessment {
    const all = [...findings]
    for (const error of this.rules.errors) {
      all.push({ rule: 'rule.load-error', message: `Rules could not be loaded, so nothing runs without asking: ${error}`, verdict: 'ask', span: null })
    }
    for (const unit of units) {
      // Deny and ask rules match any wrapper layer (a rule against `sudo` catches `sudo rm`);
      // an allow rule only the program that really runs (allowing `timeout` allows nothing inside it).
      const layers = unit.layers ?? [unit.argv]
      const matched = this.rules.rules.filter(
        (r) => r.tool === tool && (r.decision === 'allow' ? matchesTokens(r.match, unit.argv) : layers.some((l) => matchesTokens(r.match, l)))
      )
      const decision = matched.length > 0 ? strictest(matched.map((r) => r.decision)) : null
      const span = ctx.command !== undefined && unit.start !== undefined ? { arg: ctx.command, start: unit.start, end: unit.end ?? unit.start } : null
      for (const rule of matched) {
        if (rule.decision !== 'allow') all.push({ rule: `rule.${rule.source}`, message: ruleMessage(rule), verdict: rule.decision, span })
      }
      if (decision === 'allow') {
        const rule = matched[0]!
        all.push({ rule: `rule.${rule.source}`, message: ruleMessage(rule), verdict: 'allow', span })
      } else all.push(...unit.findings)
    }
    const engineVerdict = strictest(all.map((f) => f.verdict))
    const verdict = applyAutonomy(engineVerdict, ctx, all)
    if (verdict !== engineVerdict) {
      all.push({
        rule: `autonomy.${ctx.autonomy}`,
        message: verdict === 'deny' ? 'Autonomy is "readonly": only reading is allowed.' : 'Autonomy is "full": runs without asking.',
        verdict,
        span: null
      })
    }
    const always = alwaysRuleFor(tool, verdict, savableTokens, ctx.command !== undefined)
    return {
      verdict,
      findings: all,
      alwaysRule: always.rule,
      ...(always.blocked ? { alwaysBlockedReason: always.blocked.reason, alwaysBlocked: always.blocked.code } : {})
    }
  }

  private realWorkspace(workspace: string): string {
    let real = this.realWorkspaces.get(workspace)
    if (!real) {
      try {
        real = realpathSync(workspace)
      } catch {
        real = workspace
      }
      this.realWorkspaces.set(workspace, real)
    }
    return real
  }
}

/** The finding of a tool that asks in every mode (ToolDefinition.asksAlways). */
const ASKS_ALWAYS_RULE = 'tool.asks-always'
/** The finding of a call that runs without the sandbox its tool normally uses (ToolDefinition.runsUnsandboxed). */
const UNSANDBOXED_RULE = 'tool.unsandboxed'

function applyAutonomy(verdict: Verdict, ctx: RiskContext & { command?: string }, findings: RiskFinding[]): Verdict {
  if (verdict !== 'ask') return verdict
  if (ctx.autonomy === 'readonly') return 'deny'
  if (ctx.autonomy === 'full') {
    // Without a sandbox, full autonomy still asks for shell commands that are not known-safe.
    if (ctx.command !== undefined && ctx.unsandboxed) return 'ask'
    // A rule that says "ask" is the user's explicit wish, a tool that always asks says so, and a call
    // without its sandbox is bounded by nothing: full autonomy overrides none of them.
    return findings.some((f) => f.verdict === 'ask' && (f.rule.startsWith('rule.') || f.rule === ASKS_ALWAYS_RULE || f.rule === UNSANDBOXED_RULE)) ? 'ask' : 'allow'
  }
  return verdict
}

type AlwaysBlocked = { reason: string; code: NonNullable<RiskAssessment['alwaysBlocked']> }

function alwaysRuleFor(
  tool: string,
  verdict: Verdict,
  tokens: string[] | null,
  isCommand: boolean
): { rule: RiskRule | null; blocked?: AlwaysBlocked } {
  if (verdict !== 'ask') return { rule: null }
  if (!tokens || tokens.length === 0) {
    return {
      rule: null,
      blocked: {
        reason: 'Only a single plain command (or one file) can be allowed always; this one can only be allowed once or for this conversation.',
        code: { code: 'always.single-only' }
      }
    }
  }
  if (isCommand) {
    const program = tokens[0]!
    if (isNeverSaved(program)) {
      return {
        rule: null,
        blocked: { reason: `"${program}" runs other code, so it is never allowed always.`, code: { code: 'always.runs-other-code', program } }
      }
    }
  }
  return { rule: { tool, match: tokens, decision: 'allow', why: 'Allowed always by the user' } }
}

function isNeverSaved(program: string): boolean {
  return NEVER_SAVED.has(program) || interpreterName(program) !== null
}

function ruleMessage(rule: LoadedRule): string {
  const what = `${rule.tool} ${rule.match.join(' ')}`
  const verb = rule.decision === 'allow' ? 'allows' : rule.decision === 'ask' ? 'asks before' : 'denies'
  return `A ${rule.source} rule ${verb} "${what}"${rule.why ? ` (${rule.why})` : ''}.`
}

/** `tool.<category>_<access>`: the finding that a call which is not a read asks (translated by this id). */
function accessRule(call: ToolCallToAssess): string {
  return `tool.${call.category}_${call.access}`
}

function accessMessage({ tool, category, access }: ToolCallToAssess): string {
  switch (category) {
    case 'fs':
      return access === 'write' ? `${tool} changes files in the workspace.` : `${tool} runs a file.`
    case 'network':
      return `${tool} sends data over the network.`
    case 'desktop':
      return `${tool} drives the keyboard, mouse or screen.`
    case 'hardware':
      return `${tool} talks to a device.`
    case 'messaging':
      return `${tool} sends a message as you.`
    case 'memory':
      return `${tool} changes what the agent remembers.`
    case 'browser':
      return `${tool} acts in a web browser.`
    case 'mcp':
      return `${tool} is a tool of an MCP server that may change things.`
    case 'shell':
      return `${tool} runs commands.`
  }
}

function dedupe(findings: RiskFinding[]): RiskFinding[] {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = `${f.rule}:${f.span?.start}:${f.span?.end}:${f.verdict}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
