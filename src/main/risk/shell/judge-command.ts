/**
 * One simple command, judged layer by layer (docs/risk.md, "How a shell command is judged",
 * items 3–9): its words' shapes and redirections first, then each layer's program — the critical
 * catalogue on it whatever else is true, then the Windows forms, wrappers and xargs (which hand
 * the command they run to the next layer), version queries, shells, eval and interpreters, find,
 * git, and every other program by its spec.
 */
import type { Analysis, Invocation, Mapper, ShellFinding } from './analysis'
import { rawText } from './analysis'
import { classifyEval, classifyInterpreter, classifyShell } from './code-runners'
import { finishUnit, type CommandJudgement } from './command-judgement'
import { braceVariants, criticalFor, firstCriticalHit } from './critical-scan'
import { checkDownloadedRun, recordDownloads, recordTeeOfDownload } from './downloads'
import { checkGitStdinObjects, classifyGit } from './git-checks'
import { checkPaths, checkRedirects } from './path-checks'
import { judgeCommandLookup, judgeKnownProgram, judgeVersionQuery } from './program-checks'
import { FETCHERS, interpreterName, isHarmlessAssignment, SHELLS, WRAPPERS } from './programs'
import { ignoresArguments, safeSpecFor } from './safe-programs'
import { trackDirectoryChange } from './scope'
import { classifyFind } from './search-checks'
import type { PreparedSource } from './source'
import { matchSpec } from './spec'
import { HEREDOC_MESSAGE } from './stdin-checks'
import { hasArithmeticSubscriptCode } from './syntax'
import { windowsProgramName } from './windows'
import { windowsReadSpec } from './windows-reads'
import { checkWindowsPipeline, judgeWindowsProgram, judgeWindowsRead } from './windows-checks'
import { checkCommandWord, checkWordShape, resolveProgram, settleVariables, SUBSTITUTION_MESSAGE } from './word-checks'
import { judgeWrapper, judgeXargs } from './wrapper-checks'
import type { Word } from './words'

/** How many wrapper layers are unwrapped (`sudo env nice timeout … cmd`). */
const MAX_LAYERS = 8

export function classify(a: Analysis, inv: Invocation, source: PreparedSource, toOuter: Mapper, depth: number): void {
  const at = (node: { startIndex: number; endIndex: number } | Word) =>
    'node' in node ? toOuter(node.start, node.end) : toOuter(node.startIndex, node.endIndex)
  const add: CommandJudgement['add'] = (rule, message, verdict, where) => a.findings.push({ rule, message, verdict, ...at(where) })

  for (const assignment of inv.assignments) {
    if (!isHarmlessAssignment(assignment.name, assignment.value?.value ?? null)) {
      add('shell.env-prefix', `Setting ${assignment.name} for the command can change what it runs or loads.`, 'ask', assignment.node)
    }
  }
  // Plain variables that are not secret-shaped (`echo $PATH`) are judged once the program is known.
  const plainVariables: Word[] = []
  const substituted: Word[] = []
  for (const word of inv.words) checkWordShape(word, add, plainVariables, substituted)
  checkRedirects(a, inv, add)

  const unitFindings: ShellFinding[] = []
  const j: CommandJudgement = {
    inv,
    source,
    toOuter,
    depth,
    add,
    unitAdd: (rule, message, verdict, where) => unitFindings.push({ rule, message, verdict, ...at(where) }),
    unitFindings,
    layers: [],
    underXargs: false,
    variablesRead: 'contents',
    harmlessWord: null,
    stdinOk: false
  }
  try {
    let argv: Word[] | null = inv.words
    for (let layer = 0; layer < MAX_LAYERS && argv !== null && argv.length > 0; layer++) argv = judgeLayer(a, j, argv)
  } finally {
    settleVariables(plainVariables, j.variablesRead, add)
    for (const word of substituted) if (!j.harmlessWord?.(word)) add('shell.substitution', SUBSTITUTION_MESSAGE, 'ask', word)
    if (inv.heredocNode && !j.stdinOk) add('shell.heredoc', HEREDOC_MESSAGE, 'ask', inv.heredocNode)
  }
}

/** One layer: its program resolved and checked; the next layer's argv when it wraps one, else null (judged). */
function judgeLayer(a: Analysis, j: CommandJudgement, argv: Word[]): Word[] | null {
  const { add, inv } = j
  const head = argv[0]!
  if (head.value === null) {
    judgeComputedProgram(a, j, argv)
    return null
  }
  checkCommandWord(head, add)
  j.layers.push(argv)
  checkDownloadedRun(a.scope, head, add)
  const program = resolveProgram(a.scope, head, add)
  inv.programs.push(program)
  if (FETCHERS.has(program.toLowerCase())) recordDownloads(a.scope, argv, inv)
  if (program === 'tee') recordTeeOfDownload(a.scope, argv, inv)
  a.programs.add(program)
  const values = argv.map((w) => w.value)
  const raw = argv.map((w) => rawText(w))

  // The critical catalogue first: it decides whatever else is true.
  // Brace words (`/{usr,etc}`) are judged by each word they expand to.
  // Program names ignore case on macOS and Windows file systems: `RM -rf /` is rm there.
  const names = program === program.toLowerCase() ? [program] : [program, program.toLowerCase()]
  const hit = firstCriticalHit(a.scope, names, braceVariants(argv))
  if (hit) add(hit.rule, hit.message, 'deny', argv[hit.argIndex] ?? head)
  const lowerProgram = windowsProgramName(program)
  const windowsSpec = windowsReadSpec(lowerProgram, raw.slice(1))
  if (windowsSpec !== null) {
    judgeWindowsRead(a, j, argv, raw, lowerProgram, windowsSpec)
    return null
  }
  checkWindowsPipeline(lowerProgram, inv, head, add)
  if (judgeWindowsProgram(a, j, argv, raw, lowerProgram)) return null
  if (judgeCommandLookup(a, j, argv, program, values)) return null
  const wrapper = WRAPPERS.get(program)
  if (wrapper) return judgeWrapper(a, j, argv, program, wrapper)
  if (program === 'xargs') return judgeXargs(a, j, argv)
  if (judgeVersionQuery(a, j, argv, program, values)) return null
  judgeProgram(a, j, argv, program, values)
  return null
}

/**
 * The program name is computed when the command runs. An empty variable vanishes: `$x rm -rf /`
 * runs rm (docs/risk.md, item 9), so what follows is judged as the command too.
 */
function judgeComputedProgram(a: Analysis, j: CommandJudgement, argv: Word[]): void {
  const head = argv[0]!
  j.add('shell.dynamic-command', 'The program name is computed when the command runs, so it cannot be judged.', 'ask', head)
  const rest = argv.slice(1).map((w) => w.value)
  for (let k = 0; k < Math.min(3, rest.length); k++) {
    const tail = rest.slice(k)
    if (tail[0] === null) continue
    const hit = criticalFor(a.scope, tail.map((v) => v ?? ''), argv.slice(k + 1).map((w) => rawText(w)))
    if (hit) {
      j.add(hit.rule, `${hit.message} (after a computed program name, which may be empty)`, 'deny', head)
      break
    }
  }
  a.programs.add('?')
}

/** The program a layer ends with (no wrapper): code runners, find and git by their own checks, the rest by spec. */
function judgeProgram(a: Analysis, j: CommandJudgement, argv: Word[], program: string, values: Array<string | null>): void {
  const { add, unitAdd, inv, toOuter, depth } = j
  const head = argv[0]!
  if (j.underXargs && !ignoresArguments(program)) {
    add('shell.xargs', `xargs adds arguments from its input that nobody has seen; with them ${program} could write files or run code.`, 'ask', head)
  }
  // Shells, eval and interpreters get a unit of their own so rules can name them (`deny sh *`).
  if (SHELLS.has(program)) {
    finishUnit(a, j, argv)
    return classifyShell(a, inv, argv, add, toOuter, depth)
  }
  if (program === 'eval' || program === 'source' || program === '.') {
    finishUnit(a, j, argv)
    return classifyEval(a, inv, argv, program, add, toOuter, depth)
  }
  const interpreter = interpreterName(program)
  if (interpreter) {
    finishUnit(a, j, argv)
    // `python3 -m pip list` is pip: judged by pip's own safe subcommands.
    if (interpreter === 'python' && values[1] === '-m' && (values[2] === 'pip' || values[2] === 'pip3')) {
      const pip = matchSpec('pip', safeSpecFor('pip')!, values.slice(3))
      if (!pip.ok) add('shell.unknown-option', `${pip.why}.`, 'ask', head)
      else a.evidence.specs.push(pip.entry)
      j.variablesRead = 'none'
      return
    }
    return classifyInterpreter(a, inv, argv, interpreter, add)
  }
  if (program === 'find') {
    classifyFind(a, inv, argv, unitAdd, (inner) => classify(a, inner, j.source, toOuter, depth))
    // find lists names; what it feeds a reader through -exec is judged there.
    checkPaths(a, argv, add, false, 'names')
    return finishUnit(a, j, argv)
  }
  if (program === 'git') {
    classifyGit(a, argv, add, unitAdd)
    checkGitStdinObjects(a, inv, argv, add, unitAdd)
    j.variablesRead = 'contents'
    checkPaths(a, argv, add, false, 'names')
    return finishUnit(a, j, argv)
  }
  if ((program === 'test' || program === '[' || program === 'let') && argv.slice(1).some((w) => hasArithmeticSubscriptCode(rawText(w)))) {
    add('shell.arithmetic-subscript', `${program} evaluates an array subscript arithmetically: bash runs $(…) inside it, even in single quotes.`, 'ask', head)
  }
  if (program === 'cd' || program === 'pushd') trackDirectoryChange(a.scope, values.slice(1))
  judgeKnownProgram(a, j, argv, program, values)
}
