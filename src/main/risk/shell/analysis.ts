/**
 * What one shell analysis holds (docs/risk.md, "How a shell command is judged"): the shapes it
 * reports, the simple commands the walker hands over, and the state every step of the judgement
 * shares — where the command line may be working (the scope), what it found, and what the
 * judgement rests on (the evidence `deskclaw risk --explain` shows).
 */
import type { Verdict } from '../../../shared'
import type { PathContext } from '../paths'
import type { SyntaxNode } from './parser'
import type { SpecEntry } from './spec'
import type { Word } from './words'

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
  /** Why the repository's config holds a credential that remote-printing git commands show (docs/risk.md, "Secrets"). */
  gitConfigSecret?(dir: string): string | null
}

/** A simple command as the walker found it (walker.ts). */
export interface Invocation {
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

export interface Redirect {
  node: SyntaxNode
  operator: string
  target: Word | null
}

export type AddFinding = (rule: string, message: string, verdict: Verdict, where: { startIndex: number; endIndex: number } | Word) => void
/** Turns offsets of the text being read into offsets of the outermost command. */
export type Mapper = (start: number, end: number) => { start: number; end: number }

/** Where the command line may be working, as far as its earlier commands tell (scope.ts). */
export interface Scope {
  readonly ctx: ShellContext
  /** Folders a `cd` in this command may move to: paths are checked against each. */
  readonly cwds: string[]
  /** Files a fetcher in this command writes (`curl -o f`, `wget -O f`, `curl … > f`). */
  readonly downloaded: Set<string>
  /** Set while the command of a `find -exec` is judged: where find looks and which names it keeps. */
  findScope: FindScope | null
}

export interface FindScope {
  roots: string[]
  name?: RegExp
}

/** What the judgement rests on, for `deskclaw risk --explain`. */
export interface Evidence {
  /** The spec entries that allowed programs. */
  readonly specs: SpecEntry[]
  /** Globs and what they matched. */
  readonly globs: ShellExplanation['globs']
  /** Every path judged. */
  readonly targets: Set<string>
}

/**
 * One analysis of a command line, the texts nested in it (`sh -c '…'`, eval, text fed to a
 * shell) included: every step of the judgement reads and adds to it.
 */
export interface Analysis {
  readonly scope: Scope
  readonly evidence: Evidence
  readonly findings: ShellFinding[]
  readonly units: ShellUnit[]
  /** Every program considered, wrappers included. */
  readonly programs: Set<string>
  /** Judges nested text within this analysis; `map` turns its offsets into offsets of the outermost command. */
  analyseText(text: string, depth: number, map: Mapper): void
}

/** Shells nested deeper than this (`sh -c "sh -c …"`) are not analysed: they ask. */
export const MAX_NESTING = 4
/** The system folders whose programs are trusted by name (`/usr/bin/cat` is cat). */
export const TRUSTED_DIRS = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/

/** The word as written, outer quotes stripped; kept on the word (reading a node's text crosses into WASM). */
export function rawText(word: Word): string {
  return (word.raw ??= word.node.text.replace(/^(['"])(.*)\1$/s, '$2'))
}

/** Says where the spec entries from `from` on stood (`deskclaw risk --explain`). */
export function annotate(evidence: Evidence, from: number, via: string): void {
  for (const entry of evidence.specs.slice(from)) entry.via = [...(entry.via ?? []), via]
}
