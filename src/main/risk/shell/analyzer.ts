import type { Parser } from 'web-tree-sitter'
import type { Verdict } from '../../../shared'
import { displayPath, expandGlob, findNamePattern, isInside, isPublicRead, judgePath, looksLikePath, networkPathReason, normalise, resolveReal, secretPathReason, secretUnder, type PathContext } from '../paths'
import { basenameOf, criticalHit, isBlockDevice } from './critical'
import { crossCheck, readBashView } from './cross-check'
import type { SyntaxNode } from './parser'
import {
  FETCHERS,
  GIT_GLOBAL_WITH_VALUE,
  GIT_RISKY_GLOBAL,
  INTERPRETERS,
  SHELLS,
  WRAPPERS,
  XARGS_OPTIONS_WITH_VALUE,
  interpreterName,
  isHarmlessAssignment,
  programFamily,
  tokensForRules
} from './programs'
import { ignoresArguments, safeSpecFor, SECRET_SHAPED_NAME } from './safe-programs'
import { windowsReadSpec } from './windows-reads'
import { GIT_CONTENT_READERS, GIT_SPEC } from './git-spec'
import { pathspecSecretReason } from './git-pathspec'
import { computedWordHarmless, matchSpec, type ProgramSpec, type ReadKind, type SpecEntry } from './spec'
import { versionSpecFor } from './version-spec'
import { originalRange, prepareSource, type PreparedSource } from './source'
import { isCriticalWindowsTarget, isWindowsProgram, unquote, windowsHit, windowsProgramName } from './windows'
import { isDescriptorWord, redirectOperator, REDIRECT_OPERATORS } from './redirects'
import { readWord, type Word } from './words'

/** A finding with offsets into the analysed text (the engine maps them to the caller's string). */
export interface ShellFinding {
  rule: string
  message: string
  verdict: Verdict
  start: number
  end: number
}

/**
 * One program the command will run, after unwrapping (`sudo timeout 5 rm x` → `rm x`). Its
 * findings are the program-level judgement a user rule may override; everything else
 * (structure, obfuscation, privileges, redirects, secrets, the critical catalogue) is not.
 */
export interface ShellUnit {
  argv: Array<string | null>
  /** The argv at each wrapper layer, outermost first (`sudo timeout 5 rm x`, `timeout 5 rm x`, `rm x`). */
  layers: Array<Array<string | null>>
  findings: ShellFinding[]
  start: number
  end: number
}

export interface ShellAnalysis {
  findings: ShellFinding[]
  units: ShellUnit[]
  /** Every program the engine considered (wrappers included), as bare names. */
  programs: string[]
  /** What the judgement rests on, for `deskclaw risk --explain`. */
  explain: ShellExplanation
}

export interface ShellExplanation {
  /** Every folder the command may be working in (the start, then each cd, pushd, env -C, git -C). */
  cwds: string[]
  /** Each glob and what it matched on the file system (null: nothing, or too much to judge). */
  globs: Array<{ pattern: string; matches: string[] | null }>
  /** The paths the command reads or writes, resolved (links followed). */
  targets: string[]
  /** The spec entries (program, subcommand, options) that allowed each program found known-safe. */
  specs: SpecEntry[]
}

export interface ShellContext extends PathContext {
  /** Folder the command starts in (the workspace). */
  cwd: string
  /**
   * Why the workspace's own git config makes git run programs (core.fsmonitor, diff.external…),
   * or null. Then even `git status` is not read-only. Asked only when a command runs git, once
   * for each folder it may run in: the repository there may be another one (nested, bare).
   */
  gitConfigRisk?(dir: string): string | null
}

const MAX_INPUT_CHARS = 64 * 1024
const MAX_NESTING = 4
const TRUSTED_DIRS = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/

interface Invocation {
  node: SyntaxNode
  words: Word[]
  assignments: Array<{ name: string; value: Word | null; node: SyntaxNode }>
  redirects: Redirect[]
  /** Earlier stages of the pipeline this command reads from. */
  pipedFrom: Invocation[]
  /** stdin from a heredoc or herestring. */
  heredoc: boolean
  /** That heredoc or herestring, when it belongs to this simple command: whether it may run silently is decided with the program (docs/risk.md, item 4). */
  heredocNode?: SyntaxNode
  /** That heredoc's or herestring's text when it is literal (no expansion happens in it). */
  stdinText?: string
  /** A heredoc or herestring whose text is downloaded (`bash <<< "$(curl …)"`). */
  stdinFetches?: boolean
  /** Programs resolved during classification (for pipe checks downstream). */
  programs: string[]
  /** Inside `$(…)` or backticks; started with `&` (for --explain). */
  inSubstitution?: boolean
  background?: boolean
}

interface Redirect {
  node: SyntaxNode
  operator: string
  target: Word | null
}

/**
 * The shell analysis (docs/risk.md): pre-pass → tree-sitter-bash → every simple
 * command, dequoted and unwrapped → findings. Fails closed: what it does not understand asks.
 */
export class ShellAnalyzer {
  constructor(private readonly parser: Parser) {}

  analyze(command: string, ctx: ShellContext): ShellAnalysis {
    return new Analysis(this.parser, ctx).run(command, 0)
  }
}

class Analysis {
  private readonly findings: ShellFinding[] = []
  private readonly units: ShellUnit[] = []
  private readonly programs = new Set<string>()
  /** Folders a `cd` in this command may move to: paths are checked against each. */
  private readonly cwds: string[]

  constructor(
    private readonly parser: Parser,
    private readonly ctx: ShellContext
  ) {
    this.cwds = [ctx.cwd]
  }

  run(command: string, depth: number): ShellAnalysis {
    this.analyseText(command, depth, (start, end) => ({ start, end }))
    return {
      findings: this.findings,
      units: this.units,
      programs: [...this.programs],
      explain: { cwds: [...new Set(this.cwds)], globs: this.globs, targets: [...this.targets], specs: this.specs }
    }
  }

  /** Analyses `text`; `map` turns its offsets into offsets of the outermost command. */
  private analyseText(text: string, depth: number, map: (start: number, end: number) => { start: number; end: number }): void {
    const add = (f: ShellFinding) => this.findings.push(f)
    if (text.length > MAX_INPUT_CHARS) {
      add({ rule: 'shell.too-long', message: `Commands over ${MAX_INPUT_CHARS / 1024} KB are not analysed.`, verdict: 'ask', ...map(0, 0) })
      return
    }
    if (/[\0]/.test(text)) {
      add({ rule: 'shell.control-char', message: 'The command contains a NUL byte.', verdict: 'ask', ...map(0, text.length) })
    }
    const source = prepareSource(text)
    const toOuter = (start: number, end: number) => {
      const range = originalRange(source, start, end)
      return map(range.start, range.end)
    }
    if (source.spliced) {
      add({ rule: 'shell.line-continuation', message: 'Backslash-newline joins lines; judged as bash joins them.', verdict: 'allow', ...toOuter(0, 0) })
    }
    const tree = this.parser.parse(source.text)
    if (!tree) {
      add({ rule: 'shell.parse-error', message: 'The command could not be parsed.', verdict: 'ask', ...map(0, text.length) })
      return
    }
    try {
      // The second parser (docs/risk.md): where bash would read the text otherwise, ask.
      const disagreements = crossCheck(text, source, tree.rootNode)
      for (const f of disagreements) add({ ...f, ...map(f.start, f.end) })
      // A desync that hides a catastrophic command is denied, not asked (docs/risk.md, item 9): judge what bash would run.
      if (disagreements.length > 0) this.scanBashCommands(text, map)
      const walker = new Walker(this.ctx)
      walker.visit(tree.rootNode, [])
      if (tree.rootNode.hasError) {
        const bad = findErrorNode(tree.rootNode) ?? tree.rootNode
        add({ rule: 'shell.parse-error', message: 'Part of the command could not be parsed, so it cannot be judged safe.', verdict: 'ask', ...toOuter(bad.startIndex, bad.endIndex) })
        this.scanRawTokens(source, toOuter)
      }
      for (const s of walker.structures) add({ ...s, ...toOuter(s.start, s.end) })
      if (walker.invocations.length === 0 && !walker.understood && !tree.rootNode.hasError && /[^\s#]/.test(stripComments(source.text)) && walker.structures.length === 0) {
        add({ rule: 'shell.empty', message: 'No command was found in the text.', verdict: 'ask', ...map(0, text.length) })
      }
      for (const invocation of walker.invocations) {
        const before = this.specs.length
        this.classify(invocation, source, toOuter, depth)
        if (invocation.inSubstitution) this.annotate(before, 'inside $(…)')
        if (invocation.background) this.annotate(before, 'run in the background with &')
      }
    } finally {
      tree.delete()
    }
  }

  /** The commands bash itself would read (the second parser's view), through the critical catalogue. */
  private scanBashCommands(text: string, map: (start: number, end: number) => { start: number; end: number }): void {
    for (const command of readBashView(text).commands) {
      const raw = command.words.map((w) => text.slice(w.start, w.end))
      const values = raw.map((w) => w.replace(/\\(.)/gs, '$1').replace(/['"]/g, ''))
      if (values.length === 0) continue
      const hit = this.criticalFor(values, raw)
      if (hit) {
        const first = command.words[0]!
        const last = command.words.at(-1)!
        this.findings.push({ rule: hit.rule, message: `${hit.message} (hidden from one parser by the other)`, verdict: 'deny', ...map(first.start, last.end) })
      }
    }
  }

  /** For unparsable text: the critical catalogue still applies to what is visible (`{rm,-rf,/}`). */
  private scanRawTokens(source: PreparedSource, toOuter: (s: number, e: number) => { start: number; end: number }): void {
    for (const segment of source.text.split(/;|&&|\|\||\||\n|&/)) {
      const raw = segment.trim().replace(/^[({\s]+|[)}\s]+$/g, '')
      const expanded = raw.startsWith('{') || raw.includes(',') ? raw.replace(/[{}]/g, '').split(',').join(' ') : raw
      const tokens = expanded.split(/\s+/).filter(Boolean).map((t) => t.replace(/^['"]|['"]$/g, ''))
      if (tokens.length === 0) continue
      const hit = this.criticalFor(tokens.map((t) => t.replace(/['"\\]/g, '')), tokens)
      if (hit) {
        const at = source.text.indexOf(segment.trim())
        this.findings.push({ rule: hit.rule, message: hit.message, verdict: hit.verdict, ...toOuter(Math.max(0, at), Math.max(0, at) + segment.trim().length) })
      }
    }
  }

  private criticalFor(values: string[], raw: string[]): { rule: string; message: string; verdict: Verdict } | null {
    let argv = values
    // Unwrap the obvious wrappers here too, so `sudo {rm,-rf,/}`-style text is still caught.
    while (argv.length > 1 && (WRAPPERS.has(basenameOf(argv[0]!)) || argv[0] === 'xargs')) argv = argv.slice(1)
    const program = basenameOf(argv[0] ?? '')
    for (const name of new Set([program, program.toLowerCase()])) {
      for (const cwd of this.cwds) {
        const hit = criticalHit(name, argv, this.ctx, cwd)
        if (hit) return { ...hit, verdict: 'deny' }
      }
    }
    const win = windowsHit(raw.slice(raw.length - argv.length))
    return win && win.verdict === 'deny' ? win : null
  }

  /** The first hit of the catalogue for any spelling of the name, brace expansion and working folder (plain loops: this runs for every layer of every command). */
  private firstCriticalHit(names: readonly string[], variants: ReadonlyArray<ReadonlyArray<string | null>>): ReturnType<typeof criticalHit> {
    for (const name of names) {
      for (const variant of variants) {
        for (const cwd of this.cwds) {
          const hit = criticalHit(name, variant, this.ctx, cwd)
          if (hit) return hit
        }
      }
    }
    return null
  }

  private classify(inv: Invocation, source: PreparedSource, toOuter: (s: number, e: number) => { start: number; end: number }, depth: number): void {
    const at = (node: { startIndex: number; endIndex: number } | Word) =>
      'node' in node ? toOuter(node.start, node.end) : toOuter(node.startIndex, node.endIndex)
    const add = (rule: string, message: string, verdict: Verdict, where: { startIndex: number; endIndex: number } | Word) =>
      this.findings.push({ rule, message, verdict, ...at(where) })

    for (const a of inv.assignments) {
      if (!isHarmlessAssignment(a.name, a.value?.value ?? null)) {
        add('shell.env-prefix', `Setting ${a.name} for the command can change what it runs or loads.`, 'ask', a.node)
      }
    }
    // Plain variables that are not secret-shaped (`echo $PATH`) are judged once the program is known.
    const plainVariables: Word[] = []
    const substituted: Word[] = []
    for (const word of inv.words) this.checkWordShape(word, add, plainVariables, substituted)
    this.checkRedirects(inv, add)
    // Set by the branch that allows the program: which computed words are harmless where they stand, and whether
    // literal text on stdin is (docs/risk.md, item 4).
    let harmlessWord: ((word: Word) => boolean) | null = null
    let stdinOk = false

    let argv = inv.words
    let underXargs = false
    const layers: Word[][] = []
    const unitFindings: ShellFinding[] = []
    const unitAdd = (rule: string, message: string, verdict: Verdict, where: { startIndex: number; endIndex: number } | Word) =>
      unitFindings.push({ rule, message, verdict, ...at(where) })

    // What the program reads from its arguments decides whether plain variables in them ask; until a branch
    // knows the program reads nothing from them, they do.
    let variablesRead: ReadKind = 'contents'
    try {
      for (let layer = 0; layer < 8 && argv.length > 0; layer++) {
        const head = argv[0]!
        if (head.value === null) {
          add('shell.dynamic-command', 'The program name is computed when the command runs, so it cannot be judged.', 'ask', head)
          // An empty variable vanishes: `$x rm -rf /` runs rm (docs/risk.md, item 9). Judge what follows as the command.
          const rest = argv.slice(1).map((w) => w.value)
          for (let k = 0; k < Math.min(3, rest.length); k++) {
            const tail = rest.slice(k)
            if (tail[0] === null) continue
            const hit = this.criticalFor(tail.map((v) => v ?? ''), argv.slice(k + 1).map((w) => rawText(w)))
            if (hit) {
              add(hit.rule, `${hit.message} (after a computed program name, which may be empty)`, 'deny', head)
              break
            }
          }
          this.programs.add('?')
          return
        }
        this.checkCommandWord(head, add)
        layers.push(argv)
        this.checkDownloadedRun(head, add)
        const program = this.resolveProgram(head, add)
        inv.programs.push(program)
        if (FETCHERS.has(program.toLowerCase())) this.recordDownloads(argv, inv)
        // `curl … | tee i.sh`: tee writes what was downloaded.
        if (program === 'tee' && inv.pipedFrom.some((p) => p.programs.some((q) => FETCHERS.has(q.toLowerCase())))) {
          for (const w of argv.slice(1)) if (w.value && !w.value.startsWith('-')) this.downloaded.add(normalise(w.value, this.ctx, this.cwds.at(-1) ?? this.ctx.cwd))
        }
        this.programs.add(program)
        const values = argv.map((w) => w.value)
        const raw = argv.map((w) => rawText(w))
  
        // The critical catalogue first: it decides whatever else is true.
        // Brace words (`/{usr,etc}`) are judged by each word they expand to.
        // Program names ignore case on macOS and Windows file systems: `RM -rf /` is rm there.
        const names = program === program.toLowerCase() ? [program] : [program, program.toLowerCase()]
        const hit = this.firstCriticalHit(names, braceVariants(argv))
        if (hit) add(hit.rule, hit.message, 'deny', argv[hit.argIndex] ?? head)
        const lowerProgram = windowsProgramName(program)
        const windowsSpec = windowsReadSpec(lowerProgram, raw.slice(1))
        if (windowsSpec !== null) {
          // Words as PowerShell and cmd get them: quotes only group.
          const match = matchSpec(lowerProgram, windowsSpec, argv.slice(1).map((w, k) => (w.value === null ? null : unquote(raw[k + 1] ?? ''))))
          if (!match.ok) unitAdd('shell.unknown-option', `${match.why}.`, 'ask', head)
          else this.specs.push(match.entry)
          const windowsRead = windowsSpec.reads
          variablesRead = windowsRead
          this.checkPaths(argv, add, false, windowsRead)
          // Windows paths as written (`..\\.netrc`): bash's unescaping of the backslashes is not what cmd sees.
          for (let k = 1; k < argv.length; k++) {
            const written = unquote(raw[k] ?? '')
            if (written.includes('\\') && !written.startsWith('-') && !/^\/[a-z]/i.test(written)) this.checkOnePath(written.replace(/\\/g, '/'), argv[k]!, add, false, windowsRead)
          }
          // `Get-ChildItem -Recurse ~ | Select-String x` reads what the listing names.
          const lister = inv.pipedFrom.at(-1)
          if (windowsRead === 'contents' && lister && /^(get-childitem|gci|ls|dir)$/i.test(lister.words[0]?.value ?? '')) {
            this.checkPaths(lister.words, add, false, 'contents')
          }
          return this.finishUnit(argv, unitFindings, inv, toOuter, layers)
        }
        this.checkWindowsPipeline(lowerProgram, inv, head, add)
        if (isWindowsProgram(lowerProgram) || (lowerProgram === 'rm' && raw.some((r) => /^-recurse$/i.test(r)))) {
          const win = windowsHit(raw)
          if ((lowerProgram === 'iex' || lowerProgram === 'invoke-expression') && inv.pipedFrom.some((p) => p.programs.some((q) => FETCHERS.has(q.toLowerCase())))) {
            add('shell.critical.remote-code', 'Downloads code and pipes it into Invoke-Expression.', 'deny', head)
          }
          if (win) {
            const where = argv[win.argIndex] ?? head
            if (win.verdict === 'deny') add(win.rule, win.message, 'deny', where)
            else unitAdd(win.rule, win.message, win.verdict, where)
            this.finishUnit(argv, unitFindings, inv, toOuter, layers)
            return
          }
        }
  
        // `command -v git` and `command -V git` look a name up; they run nothing.
        if (program === 'command' && (values[1] === '-v' || values[1] === '-V')) {
          this.judgeBySpec(program, safeSpecFor('command')!, argv, head, add, unitAdd)
          variablesRead = 'none'
          return this.finishUnit(argv, unitFindings, inv, toOuter, layers)
        }
  
        const wrapper = WRAPPERS.get(program)
        if (wrapper) {
          this.checkWrapperOptions(program, argv, add)
          if (wrapper.finding) add(wrapper.finding.rule, wrapper.finding.message, 'ask', head)
          const inner = wrapperCommandStart(argv, wrapper, (name, value, word) => {
            if (!isHarmlessAssignment(name, value)) add('shell.env-prefix', `Setting ${name} for the command can change what it runs or loads.`, 'ask', word)
          })
          if (program === 'env' && argv.slice(1, inner).some((w) => w.value !== null && isEnvSplitString(w.value))) {
            add('shell.dynamic-command', 'env -S splits a string into a command line.', 'ask', head)
          }
          if (inner >= argv.length) {
            if (wrapper.bare) add(wrapper.bare.rule, wrapper.bare.message, 'ask', head)
            // Only what is known is allowed: a wrapper run on its own with options no spec names asks (`command -Q`).
            else if (argv.length > 1) unitAdd('shell.unknown-option', `${program} ${values.slice(1).join(' ')} is not a form known to be safe.`, 'ask', head)
            this.finishUnit(argv, unitFindings, inv, toOuter, layers)
            return
          }
          // The wrapper's own words are matched by its spec (assignments are judged above); no spec, no silent run.
          const own = argv.slice(1, inner).map((w) => w.value).filter((v) => !(wrapper.assignments && v !== null && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)))
          const match = wrapper.spec ? matchSpec(program, wrapper.spec, own) : null
          if (match?.ok) this.specs.push(match.entry)
          else if (!wrapper.finding) unitAdd('shell.unknown-option', `${match?.why ?? `${program} is not a wrapper known to be safe`}.`, 'ask', head)
          argv = argv.slice(inner)
          continue
        }
  
        if (program === 'xargs') {
          let i = 1
          while (i < argv.length && argv[i]!.value?.startsWith('-')) {
            const option = argv[i]!.value!
            // -a FILE: the arguments come from a file nobody has seen (and reading it may expose it).
            if (/^(-a|--arg-file)/.test(option)) add('shell.unknown-option', 'xargs -a reads its arguments from a file.', 'ask', argv[i]!)
            i += XARGS_OPTIONS_WITH_VALUE.has(option) ? 2 : 1
          }
          if (i >= argv.length) {
            this.programs.add('echo')
            this.finishUnit(argv, unitFindings, inv, toOuter, layers)
            return
          }
          argv = argv.slice(i)
          underXargs = true
          this.checkXargsInput(argv, inv, add, toOuter, depth)
          continue
        }
  
        const version = versionSpecFor(program)
        const versionMatch = version ? matchSpec(program, version, values.slice(1)) : null
        if (versionMatch?.ok && !(head.value.includes('/') && !TRUSTED_DIRS.test(head.value))) {
          this.specs.push(versionMatch.entry)
          variablesRead = 'none'
          return this.finishUnit(argv, unitFindings, inv, toOuter, layers)
        }
  
        if (underXargs && !ignoresArguments(program)) {
          add('shell.xargs', `xargs adds arguments from its input that nobody has seen; with them ${program} could write files or run code.`, 'ask', head)
        }
  
        // Shells, eval and interpreters get a unit of their own so rules can name them (`deny sh *`).
        if (SHELLS.has(program)) {
          this.finishUnit(argv, unitFindings, inv, toOuter, layers)
          return this.classifyShell(inv, argv, add, toOuter, depth)
        }
        if (program === 'eval' || program === 'source' || program === '.') {
          this.finishUnit(argv, unitFindings, inv, toOuter, layers)
          return this.classifyEval(inv, argv, program, add, toOuter, depth)
        }
  
        const interpreter = interpreterName(program)
        if (interpreter) {
          this.finishUnit(argv, unitFindings, inv, toOuter, layers)
          // `python3 -m pip list` is pip: judged by pip's own safe subcommands.
          if (interpreter === 'python' && values[1] === '-m' && (values[2] === 'pip' || values[2] === 'pip3')) {
            const pip = matchSpec('pip', safeSpecFor('pip')!, values.slice(3))
            if (!pip.ok) add('shell.unknown-option', `${pip.why}.`, 'ask', head)
            else this.specs.push(pip.entry)
            variablesRead = 'none'
            return
          }
          return this.classifyInterpreter(inv, argv, interpreter, add)
        }
  
        if (program === 'find') {
          this.classifyFind(inv, argv, unitAdd, source, toOuter, depth)
          // find lists names; what it feeds a reader through -exec is judged there.
          this.checkPaths(argv, add, false, 'names')
          return this.finishUnit(argv, unitFindings, inv, toOuter, layers)
        }
  
        if (program === 'git') {
          this.classifyGit(argv, add, unitAdd)
          this.checkGitStdinObjects(inv, argv, add, unitAdd)
          variablesRead = 'contents'
          this.checkPaths(argv, add, false, 'names')
          return this.finishUnit(argv, unitFindings, inv, toOuter, layers)
        }
  
        if ((program === 'test' || program === '[' || program === 'let') && argv.slice(1).some((w) => hasArithmeticSubscriptCode(rawText(w)))) {
          add('shell.arithmetic-subscript', `${program} evaluates an array subscript arithmetically: bash runs $(…) inside it, even in single quotes.`, 'ask', head)
        }
        if (program === 'cd' || program === 'pushd') this.trackDirectoryChange(values.slice(1))
  
        const spec = safeSpecFor(program)
        const trustedName = !head.value.includes('/') || TRUSTED_DIRS.test(head.value)
        if (spec && trustedName) {
          const entry = this.judgeBySpec(program, spec, argv, head, add, unitAdd)
          variablesRead = spec.reads
          if (entry) {
            const finalArgv = argv
            const args = values.slice(1)
            harmlessWord = (word) => {
              const k = finalArgv.indexOf(word)
              return k > 0 && computedWordHarmless(spec, k - 1, args)
            }
            stdinOk = !underXargs && this.literalStdinHarmless(inv, entry, argv, spec.reads, add)
            if (stdinOk && inv.heredocNode) entry.via = [...(entry.via ?? []), inv.heredocNode.type === 'herestring_redirect' ? 'fed a literal here-string' : 'fed a literal here-doc']
          }
          this.checkPaths(argv, add, false, spec.reads, spec.patternFirst === true)
          if (spec.reads === 'contents') this.checkSearchedFiles(program, argv, inv, underXargs, add)
        } else {
          const family = programFamily(program)
          unitAdd(family.rule, family.message, 'ask', head)
          variablesRead = 'contents'
          this.checkPaths(argv, add, family.rule === 'shell.writes')
        }
        return this.finishUnit(argv, unitFindings, inv, toOuter, layers)
      }
    } finally {
      this.settleVariables(plainVariables, variablesRead, add)
      for (const word of substituted) if (!harmlessWord?.(word)) add('shell.substitution', SUBSTITUTION_MESSAGE, 'ask', word)
      if (inv.heredocNode && !stdinOk) add('shell.heredoc', HEREDOC_MESSAGE, 'ask', inv.heredocNode)
    }
  }

  /**
   * The one allow path for known programs (docs/risk.md, "Program specs"): the spec allows the
   * arguments or names why not; the values of options whose role is `read` are files, judged like operands.
   */
  private judgeBySpec(program: string, spec: ProgramSpec, argv: Word[], head: Word, add: AddFinding, unitAdd: AddFinding): SpecEntry | null {
    const match = matchSpec(program, spec, argv.slice(1).map((w) => w.value))
    if (!match.ok) {
      const writes = / writes | runs code /.test(match.why)
      unitAdd(writes ? 'shell.writes' : 'shell.unknown-option', `${match.why}.`, 'ask', head)
      return null
    }
    for (const read of match.entry.reads) {
      const word = argv.find((w) => w.value !== null && w.value.endsWith(read)) ?? head
      this.checkOnePath(read, word, add, false, 'contents')
    }
    this.specs.push(match.entry)
    return match.entry
  }

  /**
   * Literal heredoc or herestring text fed to a program its spec allowed is data, like `echo text |` (docs/risk.md,
   * item 4). Where the program reads file names from stdin (`wc --files0-from=-`, `file -f -`), each name is judged
   * as the file operand it becomes. Text only known at run time, or downloaded, is not.
   */
  private literalStdinHarmless(inv: Invocation, entry: SpecEntry, argv: Word[], reads: ReadKind, add: AddFinding): boolean {
    if (!inv.heredoc) return true
    if (inv.stdinText === undefined || inv.stdinFetches) return false
    const values = argv.slice(1).map((w) => w.value)
    const fromStdin = (v: string | null | undefined) => v === '-' || v === '/dev/stdin'
    // `sha256sum -c` reads the files its checksum list names.
    const checksums = /sum$/.test(entry.program) && values.some((v) => v === '-c' || v === '--check' || (v !== null && /^-[a-z]*c[a-z]*$/.test(v)))
    const namesFromStdin =
      checksums ||
      entry.reads.some(fromStdin) ||
      values.some((v, k) => v !== null && /^--files0?-from(=|$)/.test(v) && (v.includes('=') ? fromStdin(v.slice(v.indexOf('=') + 1)) : fromStdin(values[k + 1])))
    if (namesFromStdin) {
      for (const name of inv.stdinText.split(/[\s\0]+/).filter(Boolean)) this.checkOnePath(name, argv[0]!, add, false, reads === 'none' ? 'names' : reads)
    }
    return true
  }

  private finishUnit(
    argv: Word[],
    findings: ShellFinding[],
    inv: Invocation,
    toOuter: (s: number, e: number) => { start: number; end: number },
    layers: Word[][] = [argv]
  ): void {
    const tokens = (words: Word[]) => tokensForRules(words.map((w, i) => (i === 0 && w.value ? basenameOf(w.value) : w.value)))
    const first = argv[0] ?? inv.words[0]
    const last = argv[argv.length - 1] ?? first
    const range = first && last ? toOuter(first.start, last.end) : toOuter(inv.node.startIndex, inv.node.endIndex)
    this.units.push({ argv: tokens(argv), layers: layers.map(tokens), findings, ...range })
  }

  /** How a word is written: expansions, substitutions, ANSI-C, non-ASCII — never plain. */
  private checkWordShape(word: Word, add: AddFinding, plainVariables?: Word[], substituted?: Word[]): void {
    // `$(…)` and backticks: their commands are judged on their own (the walker visits them); their output is a word
    // nobody has seen, harmless only where the program's spec says any value is (settled in classify). `<(…)` asks.
    if (word.substitutions.length > 0) {
      if (substituted && word.substitutions.every((n) => plainSubstitution(n, word.node))) substituted.push(word)
      else add('shell.substitution', SUBSTITUTION_MESSAGE, 'ask', word)
    }
    if (word.dangerousExpansion) add('shell.dangerous-expansion', 'This expansion can run or redirect code (${x@P}, ${!x}).', 'ask', word)
    else if (word.expansions.length > 0) {
      if (plainVariables && word.expansions.every(isPlainPublicVariable)) {
        if (!substituted?.includes(word)) plainVariables.push(word)
      } else add('shell.expansion', 'The value of a variable is only known when the command runs.', 'ask', word)
    }
    if (word.ansiC) add('shell.ansi-c', 'An ANSI-C string ($\'…\') can spell anything in escapes.', 'ask', word)
    if (word.value === null && word.substitutions.length === 0 && word.expansions.length === 0) {
      add('shell.dynamic-word', 'This word is only known when the command runs (brace or arithmetic expansion).', 'ask', word)
    }
  }

  private checkCommandWord(head: Word, add: AddFinding): void {
    if (head.nonAscii) add('shell.non-ascii-command', `The program name contains non-ASCII or control characters: ${escapeForDisplay(head.value ?? '')}.`, 'ask', head)
    if (head.spliced || head.escaped || (head.quoted && head.value !== '' && !/^["'][^"']*["']$/.test(rawText(head)) )) {
      add('shell.obfuscated-command', 'The program name is spliced from quotes or escapes, a common disguise.', 'ask', head)
    } else if (head.escaped || (head.quoted && rawText(head) !== head.value)) {
      add('shell.obfuscated-command', 'The program name is quoted or escaped, a common disguise.', 'ask', head)
    }
    if (head.glob) add('shell.glob-command', 'The program name is a file-name pattern.', 'ask', head)
  }

  private resolveProgram(head: Word, add: AddFinding): string {
    const value = head.value!
    if (!value.includes('/') && !value.includes('\\')) return value
    const name = basenameOf(value)
    if (!TRUSTED_DIRS.test(normalise(value, this.ctx, this.ctx.cwd))) {
      add('shell.explicit-path', `${value} is not the system ${name}: programs outside the system folders are never trusted by name.`, 'ask', head)
    }
    return name
  }

  private classifyShell(inv: Invocation, argv: Word[], add: AddFinding, toOuter: Mapper, depth: number): void {
    const shell = inv.programs[inv.programs.length - 1] ?? 'sh'
    const foreign = () => add('shell.foreign-shell', `${shell} has its own syntax; what it runs cannot be judged by bash's rules.`, 'ask', argv[0]!)
    let i = 1
    let script: Word | null = null
    let inline = false
    while (i < argv.length) {
      const v = argv[i]!.value
      if (v === null) break
      if (v === '-c' || (/^-[a-z]*c[a-z]*$/.test(v) && !v.startsWith('--'))) {
        inline = true
        script = argv[i + 1] ?? null
        break
      }
      // -s: commands come from stdin; the words after it are only arguments.
      if (v === '-s' || /^-[a-z]*s[a-z]*$/.test(v)) {
        if (!BASH_LIKE.has(shell)) foreign()
        return this.checkStdinCode(inv, inv.programs.at(-1) ?? 'sh', argv[0]!, add, { depth, toOuter })
      }
      if (v === '--') {
        i++
        break
      }
      if (!v.startsWith('-') && !v.startsWith('+')) break
      i++
    }
    const program = inv.programs[inv.programs.length - 1] ?? 'sh'
    // Other shells quote, expand and split differently: what bash's rules read there proves nothing, except zsh
    // text in the words both read alike (docs/risk.md, item 10).
    if (!BASH_LIKE.has(shell) && !(inline && shell === 'zsh' && script?.value != null && readsAlikeInZsh(script.value))) foreign()
    if (inline) {
      if (!script || script.value === null) {
        add('shell.dynamic-script', `${program} -c runs a script that is only known at run time.`, 'ask', script ?? argv[0]!)
        this.checkRemoteSubstitution(argv, add)
        return
      }
      if (depth >= MAX_NESTING) {
        add('shell.nesting', 'Shells nested this deep are not analysed.', 'ask', script)
        return
      }
      const word = script
      const before = this.specs.length
      const offset = word.node.type === 'raw_string' || (word.node.type === 'string' && word.node.text.slice(1, -1) === word.value)
      this.analyseText(word.value!, depth + 1, (start, end) =>
        offset ? toOuter(word.start + 1 + start, word.start + 1 + end) : toOuter(word.start, word.end)
      )
      this.annotate(before, `in ${[program, ...argv.slice(1).map((w) => w.value ?? '').filter((v) => v.startsWith('-'))].join(' ')} text`)
      return
    }
    const scriptArg = argv[i]
    if (scriptArg) {
      this.checkDownloadedRun(scriptArg, add)
      add('shell.script-file', `${program} runs the script ${scriptArg.value ?? '(computed)'}, whose contents are not judged.`, 'ask', scriptArg)
      this.checkRemoteSubstitution(argv, add)
      return
    }
    this.checkStdinCode(inv, program, argv[0]!, add, { depth, toOuter })
  }

  /** A shell or interpreter reading code from a pipe or heredoc; remote code when a fetch feeds it. */
  private checkStdinCode(inv: Invocation, program: string, head: Word, add: AddFinding, feed?: { depth: number; toOuter: Mapper }): void {
    // Text fed to a shell is a command: judge it as one (`bash <<< 'rm -rf /'`, `printf 'rm -rf ~' | sh`).
    const fed = inv.stdinText ?? literalPipedText(inv)
    if (fed !== null && feed && feed.depth < MAX_NESTING && SHELLS.has(program)) {
      this.analyseText(fed, feed.depth + 1, () => feed.toOuter(head.start, head.end))
    }
    const upstream = inv.pipedFrom.flatMap((p) => p.programs)
    if (inv.stdinFetches || upstream.some((p) => FETCHERS.has(p.toLowerCase()))) {
      add('shell.critical.remote-code', `Downloads code and pipes it into ${program}.`, 'deny', head)
    } else if (inv.pipedFrom.length > 0) {
      add('shell.pipe-to-shell', `Pipes text into ${program}, which runs it as code.`, 'ask', head)
    } else if (inv.heredoc) {
      add('shell.heredoc-to-shell', `Feeds a heredoc to ${program}, which runs it as code.`, 'ask', head)
    } else {
      add('shell.interactive-shell', `Starts ${program} reading commands from its input.`, 'ask', head)
    }
  }

  private checkRemoteSubstitution(argv: Word[], add: AddFinding): void {
    for (const word of argv) {
      for (const sub of word.substitutions) {
        if (containsFetcher(sub)) add('shell.critical.remote-code', 'Downloads code and runs it.', 'deny', word)
      }
    }
  }

  private classifyEval(inv: Invocation, argv: Word[], program: string, add: AddFinding, toOuter: Mapper, depth: number): void {
    const head = argv[0]!
    this.checkRemoteSubstitution(argv, add)
    if (program !== 'eval') {
      if (argv[1]) this.checkDownloadedRun(argv[1], add)
      add('shell.source', `${program} runs a file's contents in this shell.`, 'ask', head)
      if (argv.length === 1 || argv[1]?.value === '/dev/stdin') this.checkStdinCode(inv, program, head, add)
      return
    }
    add('shell.eval', 'eval runs text as a command; it is never allowed without asking.', 'ask', head)
    const parts = argv.slice(1).map((w) => w.value)
    if (parts.length > 0 && parts.every((p): p is string => p !== null) && depth < MAX_NESTING) {
      const first = argv[1]!
      const last = argv[argv.length - 1]!
      this.analyseText(parts.join(' '), depth + 1, () => toOuter(first.start, last.end))
    }
  }

  private classifyInterpreter(inv: Invocation, argv: Word[], interpreter: string, add: AddFinding): void {
    const head = argv[0]!
    const inlineFlags = INTERPRETERS.get(interpreter) ?? new Set<string>()
    const lowerArgs = argv.slice(1).map((w) => w.value?.toLowerCase() ?? null)
    this.checkRemoteSubstitution(argv, add)
    const program = inv.programs[inv.programs.length - 1] ?? interpreter
    if (interpreter === 'awk' || interpreter === 'gawk' || interpreter === 'mawk' || interpreter === 'nawk') {
      add('shell.inline-code', `${program} programs can run commands (system(), pipes); they are never allowed without asking.`, 'ask', head)
    } else if (lowerArgs.some((a) => a !== null && (inlineFlags.has(a) || [...inlineFlags].some((f) => f.startsWith('-') && f.length === 2 && a.startsWith(f) && !a.startsWith('--'))))) {
      this.checkWindowsInline(interpreter, argv, add)
      const encoded = lowerArgs.some((a) => a === '-encodedcommand' || a === '-ec' || a === '-e' && (interpreter === 'pwsh' || interpreter === 'powershell'))
      add(encoded ? 'shell.obfuscated-command' : 'shell.inline-code', `${program} runs code given on the command line; it is never allowed without asking.`, 'ask', head)
    } else if (argv.length > 1 && argv.slice(1).some((w) => w.value !== null && !w.value.startsWith('-'))) {
      for (const word of argv.slice(1)) this.checkDownloadedRun(word, add)
      add('shell.interpreter', `${program} runs a program whose contents are not judged.`, 'ask', head)
    } else {
      this.checkStdinCode(inv, program, head, add)
    }
    this.checkPaths(argv, add, false)
  }

  private classifyFind(inv: Invocation, argv: Word[], unitAdd: AddFinding, source: PreparedSource, toOuter: Mapper, depth: number): void {
    for (let i = 1; i < argv.length; i++) {
      const v = argv[i]!.value
      if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
        let end = i + 1
        while (end < argv.length && argv[end]!.value !== ';' && argv[end]!.value !== '+') end++
        const inner = argv.slice(i + 1, end)
        if (inner.length > 0) {
          const innerProgram = basenameOf(inner[0]!.value ?? '')
          if (SHELLS.has(innerProgram) && inner.some((w) => w.value !== null && w.value.includes('{}') && w.value !== '{}')) {
            unitAdd('shell.dynamic-script', `find puts each file name into the text of the ${innerProgram} script: a name can be code.`, 'ask', inner[0]!)
          }
          const previous = this.findScope
          this.findScope = this.findScopeOf(argv)
          try {
            this.classify({ ...inv, words: inner, assignments: [], redirects: [], programs: [] }, source, toOuter, depth)
          } finally {
            this.findScope = previous
          }
        }
        i = end
      } else if (v === '-delete') unitAdd('shell.writes', 'find -delete deletes every match.', 'ask', argv[i]!)
      else if (v !== null && /^-(fprint0?|fprintf|fls)$/.test(v)) unitAdd('shell.writes', `find ${v} writes a file.`, 'ask', argv[i]!)
    }
  }

  private classifyGit(argv: Word[], add: AddFinding, unitAdd: AddFinding): void {
    let i = 1
    while (i < argv.length) {
      const v = argv[i]!.value
      if (v === null || !v.startsWith('-')) break
      if (GIT_RISKY_GLOBAL.test(v)) add('shell.git-config', `git ${v} can make git run other programs.`, 'ask', argv[i]!)
      // `git -C DIR` works in DIR: paths and REV:path reads are judged there.
      const dir = v === '-C' ? argv[i + 1]?.value : null
      if (dir) this.cwds.push(resolveReal(normalise(dir, this.ctx, this.cwds.at(-1) ?? this.ctx.cwd)))
      i += GIT_GLOBAL_WITH_VALUE.has(v) ? 2 : 1
    }
    // The repository git will really use: the workspace's, or a nested or bare one reached by cd or -C (docs/risk.md, item 3).
    for (const cwd of new Set(this.cwds)) {
      const configRisk = this.ctx.gitConfigRisk?.(cwd)
      if (configRisk) {
        add('shell.git-config', configRisk, 'ask', argv[0]!)
        break
      }
    }
    const sub = argv[i]
    if (sub?.value === null) {
      add('shell.dynamic-command', 'The git subcommand is only known when the command runs.', 'ask', sub)
      return
    }
    const match = matchSpec('git', GIT_SPEC, argv.slice(1).map((w) => w.value))
    if (!match.ok) unitAdd('shell.git-write', `${match.why}.`, 'ask', sub ?? argv[0]!)
    else {
      this.specs.push(match.entry)
      for (const read of match.entry.reads) this.checkOnePath(read, sub ?? argv[0]!, add, false, 'contents')
    }
    if (!sub) return
    // Reading file contents from a repository outside the workspace (`git -C ~ grep …`) asks like any read there.
    if (GIT_CONTENT_READERS.has(sub.value)) {
      for (const word of argv.slice(i + 1)) {
        const reason = word.value !== null && !word.value.startsWith('-') ? pathspecSecretReason(word.value) : null
        if (reason) {
          add('path.sensitive', `git ${sub.value}: ${reason}.`, 'ask', word)
          break
        }
      }
      const outside = this.cwds.find((cwd) => !isInside(resolveReal(cwd), this.ctx.workspace))
      if (outside) add('path.outside-read', `git ${sub.value} reads files of a repository outside the workspace (${displayPath(outside, this.ctx)}).`, 'ask', sub)
      if (sub.value === 'grep') {
        const after = argv.slice(i + 1).map((w) => w.value)
        const dashes = after.indexOf('--')
        const roots = dashes >= 0 ? after.slice(dashes + 1).filter((v): v is string => v !== null) : ['.']
        for (const root of roots) {
          const hit = secretUnder(resolveReal(normalise(root, this.ctx, this.cwds.at(-1) ?? this.ctx.cwd)), this.ctx, { hidden: true })
          if (hit) {
            add('path.sensitive', `git grep reaches ${hit}, which usually holds secrets.`, 'ask', sub)
            break
          }
        }
      }
    }
    this.checkGitObjectPaths(argv.slice(i + 1), add)
  }

  /**
   * Secrets ask even to read; writes outside the workspace are named; reading the contents of a
   * file outside the workspace asks unless it is public (docs/risk.md, "Reads outside the
   * workspace"). Every folder a `cd` may have moved to counts, globs are expanded against the file
   * system as the shell would, and symlinks are followed.
   */
  private checkPaths(argv: Word[], add: AddFinding, writes: boolean, reads: ReadKind = 'contents', patternFirst = false): void {
    let operandIndex = 0
    let afterDashes = false
    for (let i = 1; i < argv.length; i++) {
      const word = argv[i]!
      let value = word.value
      if (value === null) continue
      const eq = value.indexOf('=')
      const isOption = !afterDashes && value.startsWith('-') && value !== '-'
      if (value === '--' && !afterDashes) {
        afterDashes = true
        continue
      }
      if (isOption) {
        if (eq < 0) continue
        value = value.slice(eq + 1)
      } else {
        if (eq > 0 && /^[a-z]+=/.test(value)) value = value.slice(eq + 1) // dd of=…
        if (patternFirst && operandIndex++ === 0 && !argv.slice(1, i).some((w) => w.value === '-e' || w.value === '-f' || w.value?.startsWith('--regexp') || w.value?.startsWith('--file'))) continue
      }
      if (!value) continue
      // With a program that reads contents, every operand is a file: `cd ~ && cat notes.txt` reads ~/notes.txt.
      const pathLike = looksLikePath(value) || word.home || word.glob || (reads !== 'none' && !isOption)
      if (!pathLike) continue
      this.checkOnePath(value, word, add, writes, reads)
    }
  }

  /** For --explain: the spec entries that allowed programs. */
  private readonly specs: SpecEntry[] = []

  /** Says where the entries from `from` on stood (`deskclaw risk --explain`). */
  private annotate(from: number, via: string): void {
    for (const entry of this.specs.slice(from)) entry.via = [...(entry.via ?? []), via]
  }
  /** For --explain: globs and what they matched, and every path judged. */
  private readonly globs: ShellExplanation['globs'] = []
  private readonly targets = new Set<string>()

  private checkOnePath(value: string, word: Word, add: AddFinding, writes: boolean, reads: ReadKind): void {
    // A UNC path is another machine, whatever the program does with it (docs/risk.md, item 7).
    const remote = networkPathReason(value)
    if (remote) return add('path.network', `${remote}: reaching it is network access.`, 'ask', word)
    // An absolute path is the same from every folder; a relative one is judged from each.
    const cwds = value.startsWith('/') || value.startsWith('~') || /^[A-Za-z]:[\\/]/.test(value) ? this.cwds.slice(0, 1) : new Set(this.cwds)
    for (const cwd of cwds) {
      const absolute = normalise(value, this.ctx, cwd)
      const expanded = word.glob ? expandGlob(absolute) : null
      if (word.glob) this.globs.push({ pattern: absolute, matches: expanded })
      const matches = expanded ?? [absolute]
      for (const match of matches) {
        const { real, finding } = judgePath(match, this.ctx, { writes, reads })
        this.targets.add(real)
        if (finding) return add(finding.rule, finding.message, 'ask', word)
      }
    }
  }

  /** Files a fetcher in this command writes (`curl -o f`, `wget -O f`, `curl … > f`). */
  private readonly downloaded = new Set<string>()

  private recordDownloads(argv: Word[], inv: Invocation): void {
    const cwd = this.cwds.at(-1) ?? this.ctx.cwd
    const program = basenameOf(argv[0]!.value ?? '').toLowerCase()
    const values = argv.map((w) => w.value)
    const urls = values.filter((v): v is string => v !== null && /^[a-z][a-z0-9+.-]*:\/\//i.test(v))
    const save = (file: string | null | undefined) => {
      if (file && file !== '-') this.downloaded.add(normalise(file, this.ctx, cwd))
    }
    const remoteName = () => urls.forEach((url) => save(url.replace(/[?#].*$/, '').split('/').pop() || null))
    let named = false
    for (let i = 1; i < values.length; i++) {
      const v = values[i]
      if (v === null || v === undefined) continue
      // curl: -o FILE (also bundled, `-fsSLo FILE`), -O / --remote-name (the URL's name); wget: -O FILE; Invoke-WebRequest: -OutFile FILE.
      if (/^--(output|output-document)=/.test(v)) save(v.slice(v.indexOf('=') + 1))
      else if (/^(--output|--output-document|-outfile|-destination)$/i.test(v)) save(values[i + 1])
      else if (/^-[a-zA-Z]*o$/.test(v) || (program !== 'curl' && /^-[a-zA-Z]*O$/.test(v))) save(values[i + 1])
      else if (/^-[oO].+/.test(v) && !v.startsWith('--')) save(v.slice(2))
      else if (program === 'curl' && (/^-[a-zA-Z]*O[a-zA-Z]*$/.test(v) || v === '--remote-name' || v === '--remote-name-all')) remoteName()
      else continue
      named = true
    }
    // wget with no -O saves under the URL's name; certutil -urlcache -f URL FILE saves to FILE.
    if (program === 'wget' && !named) remoteName()
    if (program === 'certutil') save(values.at(-1))
    if ((program === 'bitsadmin' || program === 'start-bitstransfer') && values.length > 2) save(values.at(-1))
    for (const r of inv.redirects) {
      if (/>/.test(r.operator) && r.target?.value) this.downloaded.add(normalise(r.target.value, this.ctx, cwd))
    }
  }

  /** Windows pipelines whose danger is in what flows in: `gci C:\\Windows -Recurse | Remove-Item`, shadow copies to Remove-WmiObject. */
  private checkWindowsPipeline(program: string, inv: Invocation, head: Word, add: AddFinding): void {
    const upstream = inv.pipedFrom.at(-1)?.words.map((w) => unquote(rawText(w))) ?? []
    if (upstream.length === 0) return
    const source = (upstream[0] ?? '').toLowerCase()
    if (/^(remove-item|ri|rm|del|erase|rd|rmdir)$/.test(program) && /^(get-childitem|gci|ls|dir)$/.test(source)) {
      const target = upstream.slice(1).find(isCriticalWindowsTarget)
      if (target) add('shell.critical.rm-root', `Deletes everything ${upstream[0]} lists under ${target}.`, 'deny', head)
    }
    if (/^(remove-wmiobject|remove-ciminstance|rwmi)$/.test(program) && upstream.some((t) => /shadowcopy/i.test(t))) {
      add('shell.critical.backups', 'Deletes the shadow copies (backups) of the system.', 'deny', head)
    }
  }

  /**
   * What xargs appends is known when literal text or a listing feeds it: `echo ~ | xargs rm -rf`
   * deletes home, `echo 'rm -rf /' | xargs -I{} bash -c {}` runs that text, `find ~ | xargs rm`
   * deletes under home. The catalogue judges the command with those words added.
   */
  private checkXargsInput(argv: Word[], inv: Invocation, add: AddFinding, toOuter: Mapper, depth: number): void {
    const upstream = inv.pipedFrom.at(-1)
    if (!upstream) return
    const program = basenameOf(argv[0]?.value ?? '')
    // `curl … | xargs sh -c`: what was downloaded becomes the script.
    if ((SHELLS.has(program) || interpreterName(program)) && inv.pipedFrom.some((p) => p.programs.some((q) => FETCHERS.has(q.toLowerCase())))) {
      add('shell.critical.remote-code', `Downloads code and hands it to ${program} through xargs.`, 'deny', argv[0]!)
    }
    const source = upstream.words[0]?.value ?? ''
    const printed = literalPrintedWords(upstream)
    let fed: string[] | null = null
    // A printf format is not printed as a word (`printf %s "$HOME"` prints the home folder).
    if (printed) fed = printed.filter((w, i) => !(source === 'printf' && i === 0 && /%/.test(w)))
    else if (source === 'ls' || source === 'find') {
      const named = upstream.words.slice(1).map((w) => w.value)
      fed = named.filter((w): w is string => w !== null && !w.startsWith('-') && !/^[!()]$/.test(w)).slice(0, source === 'find' ? 8 : 64)
    }
    if (!fed || fed.length === 0) return
    // The words as the shell expanded them (globs included) are what echo prints and ls lists.
    fed = fed.flatMap((w) => (/[*?[]/.test(w) ? (expandGlob(normalise(w, this.ctx, this.ctx.cwd)) ?? [w]) : [w]))
    // find lists every file under its roots: deleting them all is deleting the root.
    if (source === 'find' && (program === 'rm' || program === 'shred')) fed = [...fed, '-r']
    const values = [...argv.map((w) => w.value), ...fed]
    const hit = this.cwds.map((cwd) => criticalHit(program, values, this.ctx, cwd)).find(Boolean)
    if (hit) add(hit.rule, `${hit.message} (the words come from ${source} through xargs)`, 'deny', argv[0]!)
    // `xargs bash -c` runs its input: judge the text as a command.
    if (SHELLS.has(program) && (source === 'echo' || source === 'printf') && depth < MAX_NESTING) {
      this.analyseText(fed.join(' '), depth + 1, () => toOuter(argv[0]!.start, argv[0]!.end))
    }
  }

  /**
   * `cmd /c rd /s /q C:\\`, `powershell -Command "Remove-Item -Recurse C:\\Windows"`: the inline text
   * is judged by the Windows catalogue with cmd's and PowerShell's own token rules (quotes only group).
   */
  private checkWindowsInline(interpreter: string, argv: Word[], add: AddFinding): void {
    if (interpreter !== 'cmd' && interpreter !== 'pwsh' && interpreter !== 'powershell') return
    const raw = argv.map((w) => rawText(w))
    const flag = raw.findIndex((r, i) => i > 0 && /^([/-](c|k|r|command|encodedcommand|ec|e))$/i.test(r))
    if (flag < 0) return
    const text = raw.slice(flag + 1).join(' ').replace(/^(['"])([\s\S]*)\1$/, '$2')
    for (const statement of text.split(/&&|\|\||[;&|\n]/)) {
      const tokens = statement.trim().match(/"[^"]*"|'[^']*'|\S+/g) ?? []
      if (tokens.length === 0) continue
      const hit = windowsHit(tokens)
      if (hit?.verdict === 'deny') return add(hit.rule, `${hit.message} (inside ${basenameOf(argv[0]!.value ?? interpreter)})`, 'deny', argv[flag]!)
    }
  }

  /** Running a file this command downloaded: remote code in two steps. */
  private checkDownloadedRun(word: Word, add: AddFinding): void {
    if (word.value === null || this.downloaded.size === 0) return
    for (const cwd of this.cwds) {
      if (this.downloaded.has(normalise(word.value, this.ctx, cwd))) {
        return add('shell.critical.remote-code', `Runs ${word.value}, which this command downloads: code from the network, unseen.`, 'deny', word)
      }
    }
  }

  /**
   * `git show REV:path`, `git cat-file -p REV:path`: a file's contents from history. A secret-shaped
   * path asks as in the working tree; so does a repository outside the workspace (`git -C ~ …`).
   */
  private checkGitObjectPaths(args: Word[], add: AddFinding): void {
    for (const word of args) {
      const value = word.value
      const colon = value?.indexOf(':') ?? -1
      if (value === null || colon < 0 || /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('-')) continue
      const inRepo = value.slice(colon + 1).replace(/^\.\//, '')
      if (!inRepo) continue
      for (const cwd of this.cwds) {
        const absolute = normalise(inRepo, this.ctx, cwd)
        const secret = secretPathReason(absolute, this.ctx)
        if (secret) return add('path.sensitive', `${secret} (read from git history).`, 'ask', word)
        if (!isInside(resolveReal(cwd), this.ctx.workspace)) {
          return add('path.outside-read', `Reads ${inRepo} from a repository outside the workspace.`, 'ask', word)
        }
      }
    }
  }

  /**
   * `git cat-file --batch` reads object names (`HEAD:.env`) from stdin: literal text (a heredoc, `echo … |`) is
   * judged as `git show REV:path` would be; names from anywhere else are unseen and ask. `--batch-all-objects`
   * alone names every object, as `git log -p` does.
   */
  private checkGitStdinObjects(inv: Invocation, argv: Word[], add: AddFinding, unitAdd: AddFinding): void {
    const values = argv.map((w) => w.value)
    const sub = values.findIndex((v, k) => k > 0 && v === 'cat-file')
    if (sub < 0 || !values.some((v) => v !== null && /^--batch(-check|-command)?(=|$)/.test(v))) return
    if (values.includes('--batch-all-objects')) return
    const fed = inv.stdinText ?? (inv.pipedFrom.length > 0 ? literalPipedText(inv) : '')
    if (fed === null) {
      unitAdd('shell.unknown-option', 'git cat-file --batch reads the objects named on its input, which nobody has seen.', 'ask', argv[sub]!)
      return
    }
    const names = fed.split(/\s+/).filter(Boolean)
    const words = names.map((value): Word => ({ ...argv[sub]!, value }))
    this.checkGitObjectPaths(words, add)
  }

  /** Set while the command of a `find -exec` is judged: where find looks and which names it keeps. */
  private findScope: { roots: string[]; name?: RegExp } | null = null

  /**
   * Files a content reader gets without naming them: a recursive search (`grep -r`, `rg`), the
   * `{}` of `find -exec`, or names from `xargs`' input. Secret-shaped files among them ask, as if
   * named (docs/risk.md, "Reads outside the workspace").
   */
  private checkSearchedFiles(program: string, argv: Word[], inv: Invocation, underXargs: boolean, add: AddFinding): void {
    const values = argv.slice(1).map((w) => w.value)
    const head = argv[0]!
    const ask = (where: string, how: string) => add('path.sensitive', `${how} reaches ${where}, which usually holds secrets.`, 'ask', head)
    if (values.some((v) => v === '--version' || v === '-V' || v === '--help' || v === '--files' || v === '--type-list')) return
    if (this.findScope && values.includes('{}')) {
      for (const root of this.findScope.roots) {
        if (!isInside(root, this.ctx.workspace) && !isPublicRead(root)) {
          return add('path.outside-read', `${program} reads what find matches under ${displayPath(root, this.ctx)}, outside the workspace.`, 'ask', head)
        }
        const hit = secretUnder(root, this.ctx, { hidden: true, name: this.findScope.name })
        if (hit) return ask(hit, `${program} on what find matches`)
      }
      return
    }
    if (underXargs) {
      const upstream = inv.pipedFrom.at(-1)
      const scope = upstream && upstream.words[0]?.value === 'find' ? this.findScopeOf(upstream.words) : null
      if (!scope) return add('shell.xargs', `${program} reads files whose names come from xargs' input, which nobody has seen.`, 'ask', head)
      for (const root of scope.roots) {
        const hit = secretUnder(root, this.ctx, { hidden: true, name: scope.name })
        if (hit) return ask(hit, `${program} on what find matches`)
      }
      return
    }
    if (!SEARCHERS.has(program)) return
    const recursive =
      program === 'rg' ||
      program === 'rgrep' ||
      values.some((v) => v !== null && (/^-[a-zA-Z]*[rR]/.test(v) && !v.startsWith('--') || v === '--recursive' || v === '--dereference-recursive' || v === '-d' || v === '--directories=recurse'))
    if (!recursive) return
    // rg's real defaults (docs/risk.md, item 8): no hidden files and no symlinks unless told to.
    const follow = program !== 'rg' || values.some((v) => v === '-L' || v === '--follow' || (v !== null && /^-[a-zA-Z]*L/.test(v) && !v.startsWith('--')))
    const hidden = program !== 'rg' || values.some((v) => v === '--hidden' || v === '-.' || v === '-uu' || v === '-uuu' || (v !== null && /^-u{2,}/.test(v)))
    // The pattern is the first operand; the rest are where to search (the working folder when none).
    const operands = values.filter((v): v is string => v !== null && !v.startsWith('-'))
    const roots = (values.some((v) => v === '-e' || v === '-f' || v === '--files') ? operands : operands.slice(1))
    const folders = roots.length > 0 ? roots : ['.']
    // Each distinct folder once: a walk reads the disk.
    for (const cwd of new Set(this.cwds)) {
      for (const root of folders) {
        const absolute = resolveReal(normalise(root, this.ctx, cwd))
        if (!isInside(absolute, this.ctx.workspace)) {
          if (!isPublicRead(absolute)) return add('path.outside-read', `${program} searches ${displayPath(absolute, this.ctx)}, outside the workspace.`, 'ask', head)
          continue
        }
        const hit = secretUnder(absolute, this.ctx, { hidden, follow })
        if (hit) return ask(hit, `Searching ${displayPath(absolute, this.ctx)}`)
      }
    }
  }

  /** Where a find command looks (its start folders) and which names it keeps (-name / -iname). */
  private findScopeOf(words: Word[]): { roots: string[]; name?: RegExp } {
    const values = words.slice(1).map((w) => w.value)
    const roots: string[] = []
    for (const v of values) {
      if (v === null || v.startsWith('-') || v === '!' || v === '(') break
      roots.push(v)
    }
    const nameAt = values.findIndex((v) => v === '-name' || v === '-iname')
    const pattern = nameAt >= 0 ? values[nameAt + 1] : null
    const cwd = this.cwds.at(-1) ?? this.ctx.cwd
    return {
      roots: (roots.length > 0 ? roots : ['.']).map((root) => resolveReal(normalise(root, this.ctx, cwd))),
      ...(pattern ? { name: findNamePattern(pattern, values[nameAt] === '-iname') } : {})
    }
  }

  /** Plain public variables are fine where the program reads no files from its arguments (`echo $PATH`). */
  private settleVariables(words: Word[], reads: ReadKind, add: AddFinding): void {
    if (reads === 'none') return
    // A word whose value is known ($HOME, $PWD) is judged as the path it is; only unknown ones ask.
    for (const word of words) if (word.value === null) add('shell.expansion', 'The value of a variable is only known when the command runs.', 'ask', word)
  }

  /** `cd`, `cd -P dir`, `pushd dir`, `cd -`: every folder the command may be in afterwards counts for paths. */
  private trackDirectoryChange(args: Array<string | null>): void {
    const target = args.find((a) => a === null || !/^-[LPe@]+$/.test(a))
    if (target === null) return
    if (target === undefined || target === '-' || target === '~') this.cwds.push(this.ctx.home)
    else this.cwds.push(resolveReal(normalise(target, this.ctx, this.cwds.at(-1) ?? this.ctx.cwd)))
  }

  /** Options of wrappers that write or read files themselves (`time -o FILE`, `env -C DIR`). */
  private checkWrapperOptions(program: string, argv: Word[], add: AddFinding): void {
    for (let i = 1; i < argv.length; i++) {
      const v = argv[i]!.value
      if (v === null || !v.startsWith('-')) break
      const next = argv[i + 1]?.value ?? null
      const attached = (short: string, long: string) =>
        v === short || v === long ? next : v.startsWith(`${long}=`) ? v.slice(long.length + 1) : v.startsWith(short) && v.length > short.length && !v.startsWith('--') ? v.slice(short.length) : undefined
      if (program === 'time') {
        const out = attached('-o', '--output')
        if (out !== undefined) add('shell.writes', `time -o writes its report to ${out ?? 'a computed file'}.`, 'ask', argv[i]!)
      }
      if (program === 'env' || program === 'sudo' || program === 'run0') {
        const dir = attached(program === 'env' ? '-C' : '-D', '--chdir')
        if (dir !== undefined && dir !== null) this.cwds.push(resolveReal(normalise(dir, this.ctx, this.ctx.cwd)))
      }
    }
  }

  private checkRedirects(inv: Invocation, add: AddFinding): void {
    for (const r of inv.redirects) this.checkRedirect(r, add)
  }

  /**
   * A redirection's target is a file the command reads or writes, judged exactly as a file operand
   * (docs/risk.md, "Redirections, hard links, special files"): through the path guardian, from
   * every folder the command may be in. Writes ask as well; an operator the table does not know asks.
   */
  private checkRedirect(r: Redirect, add: AddFinding): void {
    const effect = REDIRECT_OPERATORS.get(r.operator)
    if (!effect) return add('shell.redirect-unknown', `The redirection "${r.operator}" is not one the engine knows.`, 'ask', r.node)
    const target = r.target
    if (!target || effect.closes) return
    if (target.value === null) return add('shell.redirect-dynamic', 'Redirects to a path that is only known at run time.', 'ask', r.node)
    const value = target.value
    if (effect.duplicates && isDescriptorWord(value)) return
    if (effect.writes && /^\/dev\/(null|stdout|stderr|tty|fd\/[012])$/.test(value)) return
    const absolute = normalise(value, this.ctx, this.ctx.cwd)
    if (effect.writes && isBlockDevice(absolute)) {
      return add('shell.critical.raw-device-write', `Writes raw bytes to ${absolute}, destroying what is on it.`, 'deny', r.node)
    }
    if (/^\/dev\/(tcp|udp)\//.test(value)) return add('shell.network', `Opens a network connection through ${value}.`, 'ask', r.node)
    this.checkOnePath(value, target, add, effect.writes, effect.reads ? 'contents' : 'none')
    if (effect.writes) {
      const where = isInside(resolveReal(absolute), this.ctx.workspace) ? '' : ', outside the workspace'
      add('shell.redirect-write', `Writes to ${displayPath(absolute, this.ctx)}${where}.`, 'ask', r.node)
    }
  }
}

type AddFinding = (rule: string, message: string, verdict: Verdict, where: { startIndex: number; endIndex: number } | Word) => void
type Mapper = (start: number, end: number) => { start: number; end: number }

type Structure = ShellFinding

/** Walks the syntax tree, collecting every simple command and the constructs around them. */
class Walker {
  readonly invocations: Invocation[] = []
  readonly structures: Structure[] = []
  /** A statement with no program of its own was understood (`[ -d src ]`). */
  understood = false
  private readonly seen = new Set<number>()

  constructor(private readonly ctx: ShellContext) {}

  private structure(node: SyntaxNode, rule: string, message: string, verdict: Verdict = 'ask'): void {
    if (this.seen.has(node.id)) return
    this.seen.add(node.id)
    this.structures.push({ rule, message, verdict, start: node.startIndex, end: node.endIndex })
  }

  visit(node: SyntaxNode, pipedFrom: Invocation[]): void {
    const type = node.type
    switch (type) {
      case 'program':
      case 'list':
      case 'compound_statement':
      case 'subshell':
      case 'do_group':
      case 'negated_command':
      case 'else_clause':
      case 'elif_clause':
        {
          // tree-sitter reads `a | b | c && d` as `a | (b | c && d)`; bash pipes a into b only. So a
          // list's first command keeps what is piped in (download-then-run stays visible), the rest do not.
          let first = true
          const children = node.children
          for (const [k, child] of children.entries()) {
            if (!child) continue
            // `a & b`: both are judged as any other commands; a job left running at the end (`sleep 10 &`) asks (docs/risk.md, item 4).
            if (child.type === '&' && !followedByStatement(children, k)) this.structure(child, 'shell.background', BACKGROUND_MESSAGE)
            else if (child.type === '&') this.markBackground(children, k)
            else if (child.type === ';;' || child.type === ';&' || child.type === ';;&') {
              this.structure(child, 'shell.parse-error', `"${child.type}" outside a case statement is a syntax error in bash.`)
            } else if (child.isNamed) {
              const inherits = type === 'list' ? first : type !== 'program'
              this.visit(child, inherits ? pipedFrom : [])
              first = false
            }
          }
        }
        return
      case 'pipeline':
        return this.visitPipeline(node, pipedFrom)
      case 'redirected_statement':
        return this.visitRedirected(node, pipedFrom)
      case 'command':
        this.visitCommand(node, [], pipedFrom)
        return
      case 'comment':
        return
      case 'variable_assignment':
      case 'variable_assignments':
        this.structure(node, 'shell.assignment', 'Sets a shell variable, which can change what later commands run.')
        return this.visitWords(node)
      case 'declaration_command':
      case 'unset_command':
        this.structure(node, 'shell.assignment', `${node.child(0)?.text ?? 'declare'} changes shell variables.`)
        return this.visitWords(node)
      case 'function_definition':
        return this.visitFunction(node)
      case 'test_command':
        this.understood = true
        if (hasArithmeticSubscriptCode(node.text)) {
          this.structure(node, 'shell.arithmetic-subscript', 'In an arithmetic test bash runs $(…) inside an array subscript, even in single quotes.')
        }
        return this.visitWords(node)
      case 'if_statement':
      case 'while_statement':
      case 'for_statement':
      case 'c_style_for_statement':
      case 'case_statement':
      case 'case_item':
        this.structure(node, 'shell.control-flow', 'Loops and conditionals are not auto-allowed.')
        for (const child of node.namedChildren) {
          if (!child) continue
          if (isStatement(child)) this.visit(child, [])
          else this.visitWords(child)
        }
        return
      case 'ERROR':
        for (const child of node.namedChildren) if (child) this.visit(child, pipedFrom)
        return
      default:
        if (WORD_NODES.has(type)) return this.visitWords(node)
        this.structure(node, 'shell.unknown-construct', `The construct "${type}" is not understood, so it cannot be judged safe.`)
        for (const child of node.namedChildren) if (child) this.visit(child, pipedFrom)
    }
  }

  private visitPipeline(node: SyntaxNode, upstream: Invocation[]): void {
    const before: Invocation[] = [...upstream]
    for (const stage of node.namedChildren) {
      if (!stage) continue
      const start = this.invocations.length
      this.visit(stage, [...before])
      before.push(...this.invocations.slice(start))
    }
  }

  private visitRedirected(node: SyntaxNode, pipedFrom: Invocation[]): void {
    const redirects: SyntaxNode[] = []
    let body: SyntaxNode | null = null
    for (const child of node.namedChildren) {
      if (!child) continue
      if (child.type.endsWith('_redirect')) redirects.push(child)
      else if (!body) body = child
      else this.visit(child, [])
    }
    if (body && body.type === 'command') {
      this.visitCommand(body, redirects, pipedFrom)
      return
    }
    const start = this.invocations.length
    if (body) this.visit(body, pipedFrom)
    const owner = this.invocations[start] ?? null
    for (const r of redirects) this.attachRedirect(r, owner, true)
  }

  private visitCommand(node: SyntaxNode, outerRedirects: SyntaxNode[], pipedFrom: Invocation[]): void {
    const inv: Invocation = { node, words: [], assignments: [], redirects: [], pipedFrom, heredoc: false, programs: [] }
    this.invocations.push(inv)
    const pendingRedirects: SyntaxNode[] = [...outerRedirects]
    for (const child of node.namedChildren) {
      if (!child) continue
      // Each `type` is a call into the parser's WASM: read it once.
      const type = child.type
      if (type === 'variable_assignment') {
        const name = child.childForFieldName('name')?.text ?? child.text.split('=')[0]!
        const valueNode = child.childForFieldName('value')
        const value = valueNode ? readWord(valueNode, this.ctx) : null
        if (value) this.visitSubstitutions(value)
        inv.assignments.push({ name, value, node: child })
      } else if (type.endsWith('_redirect')) pendingRedirects.push(child)
      else if (type === 'comment') continue
      else {
        const word = readWord(child, this.ctx)
        this.visitSubstitutions(word)
        inv.words.push(word)
      }
    }
    for (const r of pendingRedirects) this.attachRedirect(r, inv, false)
  }

  private attachRedirect(node: SyntaxNode, owner: Invocation | null, loose: boolean): void {
    if (node.type === 'heredoc_redirect' || node.type === 'herestring_redirect') {
      const literal = literalStdin(node, this.ctx)
      if (owner) {
        owner.heredoc = true
        if (literal !== null) owner.stdinText = literal
        if (containsFetcher(node)) owner.stdinFetches = true
      }
      // Literal text fed to one simple command is judged with its program (classify); anything else asks here.
      if (owner && !loose) owner.heredocNode = node
      else this.structure(node, 'shell.heredoc', HEREDOC_MESSAGE)
      for (const child of node.namedChildren) {
        if (!child) continue
        if (child.type === 'heredoc_body') this.visitWords(child)
        else if (child.type === 'heredoc_start' || child.type === 'heredoc_end') continue
        else if (child.type === 'pipeline') this.visitPipeline(child, owner ? [owner] : [])
        else if (isStatement(child)) this.visit(child, [])
        else if (child.type.endsWith('_redirect')) this.attachRedirect(child, owner, loose)
        else this.visitWords(child)
      }
      return
    }
    const destination = node.childForFieldName('destination') ?? node.namedChildren.filter((c) => c?.type !== 'file_descriptor').at(-1) ?? null
    const operator = redirectOperator(node, destination)
    const target = destination ? readWord(destination, this.ctx) : null
    if (target) this.visitSubstitutions(target)
    const redirect: Redirect = { node, operator, target }
    this.attachSwallowedWords(node, owner, loose)
    if (owner) owner.redirects.push(redirect)
    else {
      // A redirect with no command of its own (`> /dev/sda`): judged through a bare invocation.
      this.invocations.push({ node, words: [], assignments: [], redirects: [redirect], pipedFrom: [], heredoc: false, programs: [] })
    }
  }

  /**
   * tree-sitter reads the words after a redirection's target as more targets (`wc -l <a b`); bash
   * passes them to the command as arguments, so they are judged as its operands. After a compound
   * command bash rejects them. The second parser asks in both cases; this keeps the paths judged.
   */
  private attachSwallowedWords(node: SyntaxNode, owner: Invocation | null, loose: boolean): void {
    const extra = node.childrenForFieldName('destination').slice(1)
    if (extra.length === 0) return
    if (!owner || loose) return this.structure(node, 'shell.parse-error', 'Words after the redirection of a compound command are a syntax error in bash.')
    for (const child of extra) {
      const word = readWord(child, this.ctx)
      this.visitSubstitutions(word)
      owner.words.push(word)
    }
  }

  private visitFunction(node: SyntaxNode): void {
    const name = node.childForFieldName('name')?.text ?? node.namedChildren[0]?.text ?? ''
    const body = node.childForFieldName('body') ?? node.namedChildren.at(-1) ?? null
    const start = this.invocations.length
    if (body) this.visit(body, [])
    const calls = this.invocations.slice(start).filter((i) => i.words[0]?.value === name)
    const spawns = calls.length > 0 && (calls.some((c) => c.pipedFrom.length > 0) || calls.length > 1 || /&/.test(body?.text ?? ''))
    if (spawns) this.structure(node, 'shell.critical.fork-bomb', `The function ${name} calls itself in parallel: a fork bomb.`, 'deny')
    else this.structure(node, 'shell.function', `Defines the function ${name}; it can shadow a known program.`)
  }

  private visitWords(node: SyntaxNode): void {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') {
      this.structure(node, 'shell.substitution', 'Runs a command inside another ($(…), `…` or <(…)).')
      this.visitBody(node)
      return
    }
    for (const child of node.namedChildren) if (child) this.visitWords(child)
  }

  private visitSubstitutions(word: Word): void {
    for (const sub of word.substitutions) this.visitBody(sub)
  }

  /** The statements inside `$(…)` or `<(…)`; a job left running at its end asks as at the top level. */
  private visitBody(sub: SyntaxNode): void {
    const children = sub.children
    const start = this.invocations.length
    for (const [k, child] of children.entries()) {
      if (!child) continue
      if (child.type === '&' && !followedByStatement(children, k)) this.structure(child, 'shell.background', BACKGROUND_MESSAGE)
      else if (child.type === '&') this.markBackground(children, k)
      else if (child.isNamed) this.visit(child, [])
    }
    for (const inv of this.invocations.slice(start)) inv.inSubstitution = true
  }

  /** The commands of the statement before the `&` at k (for --explain). */
  private markBackground(children: ReadonlyArray<SyntaxNode | null>, k: number): void {
    const job = children.slice(0, k).reverse().find((c) => c !== null && c.isNamed && isStatement(c))
    if (!job) return
    for (const inv of this.invocations) if (inv.node.startIndex >= job.startIndex && inv.node.endIndex <= job.endIndex) inv.background = true
  }
}

/**
 * `$(…)` or backticks standing as (part of) the word itself, in or out of double quotes — not inside an arithmetic
 * expansion, where bash evaluates the output as an expression that can run code (`a[$(…)]`), nor inside a parameter
 * expansion, nor `<(…)`.
 */
function plainSubstitution(sub: SyntaxNode, word: SyntaxNode): boolean {
  if (sub.type !== 'command_substitution') return false
  if (sub.id === word.id) return true
  for (let n = sub.parent; n; n = n.parent) {
    if (n.type !== 'string' && n.type !== 'concatenation') return false
    if (n.id === word.id) return true
  }
  return false
}

const BACKGROUND_MESSAGE = 'Runs a command in the background, where it outlives the check.'
const SUBSTITUTION_MESSAGE = 'Runs a command inside another ($(…), `…` or <(…)), and its output is a word nobody has seen.'
const HEREDOC_MESSAGE = 'Feeds inline text to the command (heredoc or herestring); only literal text fed to a known-safe program runs silently.'

/** A statement follows child k of a list (`a & b`): the job started at k is not the command's last word. */
function followedByStatement(children: ReadonlyArray<SyntaxNode | null>, k: number): boolean {
  return children.slice(k + 1).some((c) => c !== null && c.isNamed && isStatement(c))
}

const STATEMENTS = new Set([
  'command', 'pipeline', 'list', 'redirected_statement', 'subshell', 'compound_statement', 'if_statement',
  'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'function_definition',
  'negated_command', 'variable_assignment', 'variable_assignments', 'declaration_command', 'unset_command',
  'test_command', 'do_group', 'else_clause', 'elif_clause', 'case_item'
])
const isStatement = (node: SyntaxNode) => STATEMENTS.has(node.type)

const WORD_NODES = new Set([
  'word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'simple_expansion',
  'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'number', 'brace_expression',
  'string_content', 'heredoc_body', 'variable_name', 'test_operator', 'binary_expression', 'unary_expression',
  'parenthesized_expression', 'postfix_expression', 'ternary_expression', 'regex', 'extglob_pattern', 'special_variable_name',
  'file_descriptor', 'heredoc_content'
])
const isWordNode = (node: SyntaxNode) => WORD_NODES.has(node.type)

function wrapperCommandStart(
  argv: Word[],
  spec: { optionsWithValue: ReadonlySet<string>; positionalsBefore?: number; assignments?: boolean },
  onAssignment: (name: string, value: string | null, word: Word) => void
): number {
  let i = 1
  let positionals = spec.positionalsBefore ?? 0
  while (i < argv.length) {
    const v = argv[i]!.value
    if (v === null) return i
    if (v === '--') return i + 1 + positionals
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      const eq = v.indexOf('=')
      onAssignment(v.slice(0, eq), v.slice(eq + 1), argv[i]!)
      i++
      continue
    }
    if (v.startsWith('-') && v.length > 1) {
      const name = v.includes('=') ? v.slice(0, v.indexOf('=')) : v
      i += spec.optionsWithValue.has(name) && !v.includes('=') ? 2 : 1
      continue
    }
    if (positionals > 0) {
      positionals--
      i++
      continue
    }
    return i
  }
  return i
}

/**
 * env's split-string option as getopt reads it (docs/risk.md, "Program specs"): `-S` alone or in a
 * bundle (`-iS`, `-S'ls'`), or any prefix of `--split-string` that getopt would take (`--spl`).
 */
function isEnvSplitString(option: string): boolean {
  if (/^-[^-]*S/.test(option)) return true
  const name = option.startsWith('--') ? option.slice(2).split('=')[0]! : ''
  return name.length >= 2 && 'split-string'.startsWith(name)
}

function containsFetcher(node: SyntaxNode): boolean {
  if (node.type === 'command_name') return FETCHERS.has(basenameOf(node.text).toLowerCase())
  return node.namedChildren.some((child) => child !== null && containsFetcher(child))
}

function findErrorNode(node: SyntaxNode): SyntaxNode | null {
  if (node.type === 'ERROR' || node.isMissing) return node
  for (const child of node.children) {
    if (!child || !child.hasError) continue
    const found = findErrorNode(child)
    if (found) return found
  }
  return null
}

/** The word as written, outer quotes stripped; kept on the word (reading a node's text crosses into WASM). */
function rawText(word: Word): string {
  return (word.raw ??= word.node.text.replace(/^(['"])(.*)\1$/s, '$2'))
}

function stripComments(text: string): string {
  return text.replace(/(^|\s)#[^\n]*/g, '$1')
}

function escapeForDisplay(value: string): string {
  return [...value].map((c) => (/[\x20-\x7e]/.test(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join('')
}


/**
 * `$NAME`, `${NAME}`, `${#NAME}` or `${NAME<op>word}` of a variable that is not secret-shaped
 * (`$PATH`, `${HOME:-/tmp}`, `${PWD##*-}`; docs/risk.md, item 4): the operators that only pick a
 * default or trim (`:-` `-` `:+` `+` `#` `##` `%` `%%`), with a plain word. Assigning ones (`:=`) are not.
 */
function isPlainPublicVariable(node: SyntaxNode): boolean {
  const match = /^\$(?:\{#?([A-Za-z_][A-Za-z0-9_]*)(?:(?::?[-+]|##?|%%?)[^$`{}\\]*)?\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(node.text)
  const name = match?.[1] ?? match?.[2]
  if (name === undefined) return false
  // `$env` is PowerShell's environment drive (`$env:GITHUB_TOKEN`).
  if (name.toLowerCase() === 'env') return false
  return name === 'PWD' || name === 'OLDPWD' || !SECRET_SHAPED_NAME.test(name)
}

/** A herestring's or quoted heredoc's text, when no expansion can change it; else null. */
function literalStdin(node: SyntaxNode, ctx: ShellContext): string | null {
  if (node.type === 'herestring_redirect') {
    const word = node.namedChildren.find((c) => c !== null && isWordNode(c))
    return word ? readWord(word, ctx).value : null
  }
  const body = node.namedChildren.find((c) => c?.type === 'heredoc_body')
  if (!body) return null
  const quoted = /<<-?\s*['"\\]/.test(node.text)
  return quoted || !/[$`\\]/.test(body.text) ? body.text : null
}

/** What an `echo` or `printf` right before in the pipeline prints, when every word is literal; else null. */
function literalPipedText(inv: Invocation): string | null {
  const upstream = inv.pipedFrom.at(-1)
  const program = upstream?.words[0]?.value
  // An encoded payload decoded on the way (`echo … | base64 -d | sh`) is judged as the text it decodes to.
  if (upstream && program) {
    const decoded = decodedText(upstream, program)
    if (decoded !== undefined) return decoded
  }
  // `cat <<< 'text' | sh`: cat passes its herestring on.
  if (upstream && program === 'cat' && upstream.words.length === 1 && upstream.stdinText !== undefined) return upstream.stdinText
  const words = upstream ? literalPrintedWords(upstream) : null
  return words ? words.join(' ').replace(/\\n/g, '\n').replace(/%s/g, '') : null
}

/** What a decoder in a pipeline (`base64 -d`, `xxd -r -p`, `rev`) prints for literal input; undefined when it is not one. */
function decodedText(inv: Invocation, program: string): string | null | undefined {
  const args = inv.words.slice(1).map((w) => w.value)
  const decode = program === 'base64' && args.some((a) => a === '-d' || a === '--decode' || a === '-D' || (a !== null && /^-[a-zA-Z]*d/.test(a) && !a.startsWith('--')))
  const unhex = program === 'xxd' && args.some((a) => a !== null && /^-[a-z]*r/.test(a))
  if (!decode && !unhex && program !== 'rev') return undefined
  const input = inv.stdinText ?? literalPipedText(inv)
  if (input === null) return null
  if (decode) return Buffer.from(input.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (unhex) return Buffer.from(input.replace(/[^0-9a-f]/gi, ''), 'hex').toString('utf8')
  return input.split('\n').map((line) => [...line].reverse().join('')).join('\n')
}

/** The words an `echo` or `printf` gets (echo's -n/-e flags left out), when every one is literal; else null. */
function literalPrintedWords(inv: Invocation): string[] | null {
  const program = inv.words[0]?.value
  if (program !== 'echo' && program !== 'printf') return null
  const values = inv.words.slice(1).map((w) => w.value)
  if (values.some((v) => v === null)) return null
  return (values as string[]).filter((v, i) => !(program === 'echo' && i === 0 && /^-[neE]+$/.test(v)))
}

const MAX_BRACE_VARIANTS = 64

/** The argv once for each expansion of its brace words (`rm -rf /{usr,etc}` → `rm -rf /usr`, `rm -rf /etc`). */
function braceVariants(argv: Word[]): Array<Array<string | null>> {
  if (argv.every((w) => w.value !== null)) return [argv.map((w) => w.value)]
  let variants: Array<Array<string | null>> = [[]]
  for (const word of argv) {
    const expanded = word.value === null ? expandBraces(rawText(word)) : null
    const options = expanded ?? [word.value]
    const next: Array<Array<string | null>> = []
    for (const variant of variants) for (const option of options) next.push([...variant, option])
    if (next.length > MAX_BRACE_VARIANTS) return [argv.map((w) => w.value)]
    variants = next
  }
  return variants
}

/** `a{b,c}d` → abd, acd (comma lists, no nesting, no quotes or expansions); null for anything else. */
function expandBraces(text: string): string[] | null {
  if (!/^[^'"$`\\]*\{[^{}]*,[^{}]*\}[^'"$`\\]*$/.test(text)) return null
  let results = ['']
  const pattern = /\{([^{}]*,[^{}]*)\}|([^{]+)/g
  for (const match of text.matchAll(pattern)) {
    const options = match[1] !== undefined ? match[1].split(',') : [match[2]!]
    results = results.flatMap((prefix) => options.map((option) => prefix + option))
    if (results.length > MAX_BRACE_VARIANTS) return null
  }
  return results
}

/** Shells whose syntax is bash's (or POSIX sh's): their -c text is analysed; any other shell's is opaque. */
const BASH_LIKE = new Set(['sh', 'bash', 'dash', 'ash', 'rbash'])

/**
 * zsh text made only of what zsh and bash read alike: plain words (letters, digits, `_./,:+@%-`, `=` not at a
 * word's start, `~` only at its start), single quotes, double quotes without `$`, backquote, `\` or `!`, and
 * `;` `&&` `||` `|`. No `$`, globs, parentheses, `<`/`>` or `=word` (zsh's expansions, qualifiers and numeric
 * ranges live there).
 */
function readsAlikeInZsh(script: string): boolean {
  return ZSH_ALIKE.test(script)
}
const ZSH_PIECE = String.raw`(?:[\w./,:+@%=-]|'[^']*'|"[^"$\x60\\!]*")`
// `~` only alone or before `/`: zsh's named directories (`~name`, from its start-up files) are not bash's `~user`.
const ZSH_WORD = String.raw`(?:~(?=[ \t;&|]|$)|(?:~(?=/))?(?:[\w./,:+@%-]|'[^']*'|"[^"$\x60\\!]*")${ZSH_PIECE}*)`
const ZSH_ALIKE = new RegExp(String.raw`^[ \t]*${ZSH_WORD}(?:(?:[ \t]+|[ \t]*(?:;|&&|\|\||\|)[ \t]*)${ZSH_WORD})*[ \t;]*$`)


/**
 * `$(…)` or backticks inside an array subscript (`a[$(id)]`), in any quoting: bash evaluates it
 * when the word is used arithmetically (`[[ x -eq 1 ]]`, `test -v`, `let`, `(( ))`).
 */
function hasArithmeticSubscriptCode(text: string): boolean {
  return /\[[^\]]*(\$\(|`)/.test(text)
}

/** Programs that search inside files, recursively when told to. */
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'rgrep', 'rg', 'ag', 'ack'])


