/**
 * Wrappers and xargs (docs/risk.md, item 3): `sudo`, `env`, `timeout`, `nice`, … are unwrapped
 * to the command they run, their own words matched by their spec (programs.ts), their options
 * that write or move the working folder judged; xargs appends words from its input.
 */
import { normalise, resolveReal } from '../paths'
import type { AddFinding, Analysis, Scope } from './analysis'
import { finishUnit, type CommandJudgement } from './command-judgement'
import { isHarmlessAssignment, XARGS_OPTIONS_WITH_VALUE, type WrapperSpec } from './programs'
import { matchSpec } from './spec'
import { checkXargsInput } from './stdin-checks'
import type { Word } from './words'

/** A wrapper's layer: its findings, then the command it runs as the next layer (null: judged here, nothing runs inside). */
export function judgeWrapper(a: Analysis, j: CommandJudgement, argv: Word[], program: string, wrapper: WrapperSpec): Word[] | null {
  const { add, unitAdd } = j
  const head = argv[0]!
  const values = argv.map((w) => w.value)
  checkWrapperOptions(a.scope, program, argv, add)
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
    finishUnit(a, j, argv)
    return null
  }
  // The wrapper's own words are matched by its spec (assignments are judged above); no spec, no silent run.
  const own = argv.slice(1, inner).map((w) => w.value).filter((v) => !(wrapper.assignments && v !== null && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)))
  const match = wrapper.spec ? matchSpec(program, wrapper.spec, own) : null
  if (match?.ok) a.evidence.specs.push(match.entry)
  else if (!wrapper.finding) unitAdd('shell.unknown-option', `${match?.why ?? `${program} is not a wrapper known to be safe`}.`, 'ask', head)
  return argv.slice(inner)
}

/** xargs' layer: its options, then the command it runs (with words from its input) as the next layer. */
export function judgeXargs(a: Analysis, j: CommandJudgement, argv: Word[]): Word[] | null {
  const { add } = j
  let i = 1
  while (i < argv.length && argv[i]!.value?.startsWith('-')) {
    const option = argv[i]!.value!
    // -a FILE: the arguments come from a file nobody has seen (and reading it may expose it).
    if (/^(-a|--arg-file)/.test(option)) add('shell.unknown-option', 'xargs -a reads its arguments from a file.', 'ask', argv[i]!)
    i += XARGS_OPTIONS_WITH_VALUE.has(option) ? 2 : 1
  }
  if (i >= argv.length) {
    a.programs.add('echo')
    finishUnit(a, j, argv)
    return null
  }
  const inner = argv.slice(i)
  j.underXargs = true
  checkXargsInput(a, inner, j.inv, add, j.toOuter, j.depth)
  return inner
}

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

/** Options of wrappers that write or read files themselves (`time -o FILE`, `env -C DIR`). */
function checkWrapperOptions(scope: Scope, program: string, argv: Word[], add: AddFinding): void {
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
      if (dir !== undefined && dir !== null) scope.cwds.push(resolveReal(normalise(dir, scope.ctx, scope.ctx.cwd)))
    }
  }
}
