import { watch, type FSWatcher } from 'node:fs'
import type { AnyTool } from '../tools'
import type { ToolCallOutcome } from './tool-call-types'

/** How long a cached read stays good by default (docs/architecture.md, "Result cache and repeated writes"). */
export const DEFAULT_READ_CACHE_TTL_MS = 60_000

/**
 * What the loop does with a call identical to an earlier one of the run, by the tool's own
 * declaration (docs/architecture.md, "Result cache and repeated writes"): a `same-answer` read is
 * served from the cache, a `same-answer` write is flagged instead of run (while nothing was written
 * since), and a `may-differ` call — a command, a page, the screen, a device — always runs.
 */
export type RepeatHandling = 'cache' | 'flag' | 'run'

export function repeatHandling(definition: AnyTool): RepeatHandling {
  if (definition.repeat !== 'same-answer') return 'run'
  return definition.access === 'read' ? 'cache' : 'flag'
}

export const isCachedRead = (definition: AnyTool): boolean => repeatHandling(definition) === 'cache'

/** Bumps the run's write generation when it completes: anything but a read may change the workspace. */
export const isWriteCall = (definition: AnyTool): boolean => definition.access !== 'read'

interface Entry {
  outcome: ToolCallOutcome
  at: number
}

export interface RunResultsOptions {
  ttlMs: number
  /** Watched for changes made outside DeskClaw's tools, where the OS watches a tree natively. */
  workspace?: string
  now?: () => number
}

/**
 * What one run has read and written (docs/architecture.md, "Result cache and repeated writes"): the
 * results of fs reads, served again while the workspace has not been written to and the TTL has not
 * passed, and the writes that completed since the last change, which are not run twice.
 *
 * The workspace counts as written when any non-read call of the run completes, or — on macOS and
 * Windows, whose fs.watch watches a tree natively — when a file in it changes. Linux's recursive
 * watch walks and watches every folder, too costly for a large workspace: there the cache relies on
 * the write calls and the TTL.
 */
export class RunResults {
  /** Bumped by every write: a read begun before it is not cached after it. */
  private generation = 0
  private readonly reads = new Map<string, Entry>()
  /** A write's key → the generation its successful completion started. */
  private readonly writes = new Map<string, number>()
  private watcher: FSWatcher | undefined
  private readonly now: () => number

  constructor(private readonly options: RunResultsOptions) {
    this.now = options.now ?? Date.now
  }

  get currentGeneration(): number {
    return this.generation
  }

  cachedRead(key: string): ToolCallOutcome | undefined {
    const entry = this.reads.get(key)
    if (!entry) return undefined
    if (this.now() - entry.at > this.options.ttlMs) {
      this.reads.delete(key)
      return undefined
    }
    return entry.outcome
  }

  /** Keeps a read's result, unless the workspace was written while it ran. */
  readDone(key: string, outcome: ToolCallOutcome, startedAt: number): void {
    if (outcome.isError || startedAt !== this.generation || this.options.ttlMs <= 0) return
    this.reads.set(key, { outcome, at: this.now() })
    this.watchWorkspace()
  }

  /** True when this exact write already completed and nothing was written since. */
  repeatsWrite(key: string): boolean {
    return this.writes.get(key) === this.generation
  }

  /** A non-read call completed: the workspace counts as written; `remember`: a repeat of it is flagged while nothing else is written. */
  writeDone(key: string, outcome: ToolCallOutcome, remember: boolean): void {
    this.changed()
    if (remember && !outcome.isError) this.writes.set(key, this.generation)
  }

  /** The workspace was written by someone else (a sub-agent's run). */
  written(): void {
    this.changed()
  }

  /** The run ended: stop watching. */
  close(): void {
    this.watcher?.close()
    this.watcher = undefined
  }

  private changed(): void {
    this.generation++
    this.reads.clear()
  }

  private watchWorkspace(): void {
    const { workspace } = this.options
    if (this.watcher || !workspace || (process.platform !== 'darwin' && process.platform !== 'win32')) return
    try {
      this.watcher = watch(workspace, { recursive: true, persistent: false }, () => this.changed())
      this.watcher.on('error', () => this.close())
    } catch {
      // No watcher: the write calls and the TTL still bound how stale a result can be.
    }
  }
}
