/**
 * The one spec format every path to `allow` goes through (docs/risk.md, "Program specs"):
 * program → subcommands → options, matched the way the program parses them, each value with its
 * role → operand roles. Anything a spec does not name asks. Options are matched as GNU getopt and
 * git's parse-options read them: short options bundle (`-la`), a short option's value may be
 * attached (`-n5`) or the next word, a long option's value follows `=` or is the next word. A long
 * option is allowed only by its full name: getopt also takes an unambiguous prefix, and a prefix
 * of a safe name can be a prefix of an unsafe one too (`--out` of `--output`), so prefixes ask.
 */

/** What a path operand is read for: `contents` (cat), `names` (ls) or nothing (echo). */
export type ReadKind = 'contents' | 'names' | 'none'

/**
 * What an option's value is. Specs name the safe roles; the unsafe ones are listed under
 * `unsafe` so the generator test can try them and the message can say what they do.
 */
export type ValueRole = 'text' | 'count' | 'pattern' | 'read' | 'names' | 'written' | 'code' | 'network'

export interface ProgramSpec {
  /** What a path operand is read for. */
  reads: ReadKind
  /** Every option of the program is known to be safe (none writes, runs code or reaches the network). */
  anyOption?: boolean
  /** Short options without a value (`-la` bundles them). */
  flags?: string
  /** Short options that take a value, attached (`-n5`) or as the next word. */
  valued?: string
  /** Long options without a value. */
  long?: readonly string[]
  /** Long options that take a value (`--format=x` or `--format x`). */
  longValued?: readonly string[]
  /** The role of an option's value when it is not plain text: `{ f: 'read', 'exclude-from': 'read' }`. */
  roles?: Readonly<Record<string, ValueRole>>
  /** Single-dash long options (`-version`, find's predicates). */
  words?: readonly string[]
  /**
   * cmd.exe switches (`/s`, `/fo:csv`), matched by name in any case, a `:value` allowed; a name ending in `*`
   * takes letters after it (`a*`: `/ad`, `/a-h`).
   */
  switches?: readonly string[]
  /**
   * PowerShell parameters (`-Recurse`, `-Path:x`), lower case, matched by their full name in any case. PowerShell
   * also takes any unambiguous prefix (`-Rec`); as with long options, only the full name is allowed.
   */
  parameters?: readonly string[]
  /** `-NUM` is allowed (`head -20`). */
  numeric?: boolean
  /** At most this many operands (hostname 0: an operand renames the machine). */
  maxOperands?: number
  /** Operands must look like this (date's `+FORMAT`; a bare operand sets the clock). */
  operand?: RegExp
  /** The first operand is a pattern, not a file (grep, rg), unless -e or -f gives the pattern. */
  patternFirst?: boolean
  /**
   * A last check of the whole argument list (what the option lists cannot say: `ps e` prints environments). It
   * reads literal words, so a computed word (`$X`, `$(…)`) never passes a spec that has one.
   */
  check?: (args: Args) => string | null
  /**
   * Arguments from this index on (0 = the first after the program) are data the program only prints, whatever
   * their value (`printf FORMAT ARG…`: options are read only before the format), so a computed word is harmless there.
   */
  dataFrom?: number
  /** Only these operand sequences are allowed (`ip addr`, `docker ps`); a trailing '*' allows more operands. */
  subcommands?: ReadonlyArray<readonly string[]>
  /**
   * Subcommands with their own spec (`git log`): the options before the first operand are this
   * spec's (git's global options), the first operand must be a key here, the rest is its spec's.
   */
  commands?: Readonly<Record<string, ProgramSpec>>
  /** Known unsafe options and what their value is (or `flag`): never allowed; the generator tries each and its prefixes. */
  unsafe?: Readonly<Record<string, ValueRole | 'flag'>>
  /** Forms the generator test expects to be allowed (`['log', '--oneline']`), so it fails both ways. */
  safeForms?: ReadonlyArray<readonly string[]>
}

/** @deprecated the old name of ProgramSpec. */
export type SafeSpec = ProgramSpec

export type Args = ReadonlyArray<string | null>

/** The spec entry that allowed a command: what `deskclaw risk --explain` names. */
export interface SpecEntry {
  program: string
  /** The subcommand path (`log`, `config get`, `ps`), if any. */
  subcommand?: string
  /** The options the spec matched, as named there (`--oneline`, `-n`). */
  options: string[]
  /** Values of options whose role is `read`: files the command reads (judged like operands). */
  reads: string[]
  /** Where the command stood, when not plainly (`inside $(…)`, `fed literal here-doc text`, `in bash -lc text`, `run in the background`). */
  via?: string[]
}

export type SpecMatch = { ok: true; entry: SpecEntry } | { ok: false; why: string }

/** Matches arguments against a spec; the entry that allows them, or why not. */
export function matchSpec(program: string, spec: ProgramSpec, args: Args): SpecMatch {
  const entry: SpecEntry = { program, options: [], reads: [] }
  const why = matchInto(program, spec, args, entry)
  return why ? { ok: false, why } : { ok: true, entry }
}

/** Why the arguments are not all known-safe for this program, or null when they are. */
export function unsafeArguments(program: string, spec: ProgramSpec, args: Args): string | null {
  const match = matchSpec(program, spec, args)
  return match.ok ? null : match.why
}

function matchInto(program: string, spec: ProgramSpec, args: Args, entry: SpecEntry): string | null {
  if (spec.commands) return matchCommand(program, spec, args, entry)
  const operands: Array<string | null> = []
  let afterDashes = false
  const note = (name: string) => {
    if (!entry.options.includes(name)) entry.options.push(name)
  }
  const value = (name: string, v: string | null | undefined) => {
    if (spec.roles?.[name] === 'read' && v) entry.reads.push(v)
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === null) {
      // A computed word is judged by its own findings; as an option it could be anything.
      if (!spec.anyOption) operands.push(null)
      continue
    }
    if (spec.switches && /^\/[a-z?]/i.test(arg)) {
      const name = arg.slice(1).split(':')[0]!.toLowerCase()
      if (!knownSwitch(spec.switches, name)) return `${program} ${arg} ${unsafeWhat(spec, name)}`
      note(`/${name}`)
      continue
    }
    if (spec.parameters && arg.length > 1 && arg.startsWith('-') && !afterDashes) {
      const name = arg.slice(1).split(':')[0]!.toLowerCase()
      if (!spec.parameters.includes(name)) return `${program} ${arg} ${unsafeWhat(spec, name, 'parameter')}`
      note(`-${name}`)
      continue
    }
    if (afterDashes || arg === '-' || !arg.startsWith('-') || spec.anyOption) {
      if (arg === '--' && !afterDashes) afterDashes = true
      else if (afterDashes || !arg.startsWith('-') || arg === '-') operands.push(arg)
      continue
    }
    if (arg === '--') {
      afterDashes = true
      continue
    }
    if (arg.startsWith('--')) {
      const [name, inline] = splitLong(arg)
      // Some options take an optional value (`--stat`, `--stat=120`): a flag without `=`, valued with it.
      if (inline === null && spec.long?.includes(name)) {
        note(`--${name}`)
        continue
      }
      if (spec.longValued?.includes(name)) {
        note(`--${name}`)
        value(name, inline ?? args[i + 1])
        if (inline === null) i++
        continue
      }
      if (spec.long?.includes(name)) return `${program} ${arg}: the option takes no value`
      return `${program} ${arg} ${unsafeWhat(spec, name)}`
    }
    if (spec.words?.includes(arg)) {
      note(arg)
      continue
    }
    if (spec.numeric && /^-\d+$/.test(arg)) {
      note('-NUM')
      continue
    }
    const letters = arg.slice(1)
    for (let j = 0; j < letters.length; j++) {
      const letter = letters[j]!
      if (spec.valued?.includes(letter)) {
        note(`-${letter}`)
        const attached = letters.slice(j + 1)
        value(letter, attached || args[i + 1])
        if (!attached) i++ // the value is the next word
        break
      }
      if (!spec.flags?.includes(letter)) return `${program} -${letter} ${unsafeWhat(spec, letter)}`
      note(`-${letter}`)
    }
  }
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) {
    return spec.maxOperands === 0 ? `${program} with an operand changes something` : `${program} with ${operands.length} operands may write the last one`
  }
  if (spec.operand && operands.some((o) => o === null || !spec.operand!.test(o))) return `${program} with that operand changes something`
  if (spec.check && args.some((a) => a === null)) return `${program}: a word only known at run time cannot be checked`
  const extra = spec.check?.(args)
  if (extra) return `${program}: ${extra}`
  if (spec.subcommands) {
    // Exactly these operands; a trailing '*' allows any further operands (`npm view PKG`).
    const known = spec.subcommands.find((sub) => {
      const open = sub.at(-1) === '*'
      const fixed = open ? sub.slice(0, -1) : sub
      return fixed.every((word, k) => operands[k] === word) && (open ? operands.length >= fixed.length : operands.length === fixed.length)
    })
    if (!known) return `${program} ${operands.filter((o) => o !== null).slice(0, 2).join(' ')} is not a read-only subcommand`
    const named = known.filter((w) => w !== '*').join(' ')
    if (named) entry.subcommand = named
  }
  return null
}

/** `git [global options] SUBCOMMAND [its options]`: the global options are the parent's, the rest the subcommand's. */
function matchCommand(program: string, spec: ProgramSpec, args: Args, entry: SpecEntry): string | null {
  let i = 0
  while (i < args.length && args[i] !== null && args[i]!.startsWith('-') && args[i] !== '-') {
    const arg = args[i]!
    const takesValue = (arg.startsWith('--') ? spec.longValued?.includes(splitLong(arg)[0]) && !arg.includes('=') : spec.valued?.includes(arg.slice(1)))
    i += takesValue ? 2 : 1
  }
  const globals = matchInto(program, { ...spec, commands: undefined, subcommands: undefined, check: undefined, maxOperands: 0 }, args.slice(0, i), entry)
  if (globals) return globals
  // Bare `git` prints its usage.
  if (i >= args.length) return null
  const name = args[i]
  if (name === null || name === undefined) return `the ${program} subcommand is only known when the command runs`
  const sub = Object.prototype.hasOwnProperty.call(spec.commands, name) ? spec.commands![name] : undefined
  if (!sub) return `${program} ${name} can change the repository, run hooks or reach the network`
  const inner: SpecEntry = { program, options: [], reads: [] }
  const why = matchInto(`${program} ${name}`, sub, args.slice(i + 1), inner)
  if (why) return why
  entry.subcommand = inner.subcommand ? `${name} ${inner.subcommand}` : name
  entry.options.push(...inner.options)
  entry.reads.push(...inner.reads)
  return null
}

function unsafeWhat(spec: ProgramSpec, name: string, kind = 'option'): string {
  const role = spec.unsafe?.[name]
  if (role === 'written') return 'writes a file'
  if (role === 'code') return 'runs code or another program'
  if (role === 'network') return 'reaches the network'
  return `is not ${kind === 'option' ? 'an option' : `a ${kind}`} known to be safe`
}

/** `/s` by name; `a*` also takes `/ad`, `/a-h` (letters and `-` after the name). */
function knownSwitch(switches: readonly string[], name: string): boolean {
  return switches.some((s) => s === name || (s.endsWith('*') && name.startsWith(s.slice(0, -1)) && /^[a-z-]*$/.test(name.slice(s.length - 1))))
}

export function splitLong(arg: string): [string, string | null] {
  const eq = arg.indexOf('=')
  return eq < 0 ? [arg.slice(2), null] : [arg.slice(2, eq), arg.slice(eq + 1)]
}

/** How an entry reads in `deskclaw risk --explain`: `git log --oneline -n`. */
export function describeEntry(entry: SpecEntry): string {
  const named = [entry.program, entry.subcommand, ...entry.options].filter(Boolean).join(' ')
  return entry.via?.length ? `${named} (${entry.via.join(', ')})` : named
}

/**
 * Whether a word only known at run time (the output of `$(…)`, after splitting into any number of words) is
 * harmless as argument `index` (0-based, after the program), given the other arguments: only where every literal
 * value would be allowed and nothing is read from it — a program whose every option is safe and that reads no
 * files from its arguments (`echo`), or the data part of a spec that has one (`printf FORMAT $(…)`).
 */
export function computedWordHarmless(spec: ProgramSpec, index: number, args: Args): boolean {
  if (spec.check || spec.subcommands || spec.commands) return false
  if (spec.anyOption && spec.reads === 'none') return true
  return spec.dataFrom !== undefined && index >= spec.dataFrom && args.slice(0, spec.dataFrom).every((a) => a !== null)
}
