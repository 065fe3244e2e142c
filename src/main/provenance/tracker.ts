/**
 * What has entered one conversation's context (docs/risk.md, "Provenance"): the untrusted sources
 * read since the user's last message, the values (hashed) that came from workspace files, secrets
 * and pages, and the destinations the user named. One tracker per conversation, kept for the
 * process's life; its memory is bounded (the oldest values are forgotten first).
 */
import type { OutputSource, UntrustedSourceKind } from './kinds'
import { argumentPieces, hashValue, outputPieces } from './values'
import { namedDestinations, type NamedDestinations } from './destinations'

/** Where a followed value came from: a workspace file or command, a secret, or a page (a site, a server, the screen). */
export type ValueOrigin = 'workspace' | 'secret' | 'page'

/** An untrusted source that entered the context: its kind and what it was (a URL, a path, a server). */
export interface EnteredSource {
  kind: UntrustedSourceKind
  name: string
}

/** A value an argument carries: where it is in which argument, and where it came from. */
export interface CarriedValue {
  /** The argument's path (`url`, `body`, `headers.x`); a top-level name is what findings point into. */
  arg: string
  start: number
  end: number
  origin: ValueOrigin
  /** The path, URL or server it came from. */
  from: string
}

export interface TrackerLimits {
  /** Values kept at most (each a 22-character hash and its origin). */
  maxValues: number
  /** Sources remembered since the user's last message at most. */
  maxSources: number
}

export const DEFAULT_TRACKER_LIMITS: TrackerLimits = { maxValues: 50_000, maxSources: 64 }

/** Decides which output is a secret: by its file's path (and, where known, by its content). */
export interface SecretTest {
  isSecretPath?(path: string): boolean
  isSecretValue?(value: string): boolean
}

const ORIGIN_RANK: Record<ValueOrigin, number> = { page: 0, workspace: 1, secret: 2 }

export class ProvenanceTracker {
  private readonly values = new Map<string, { origin: ValueOrigin; from: string }>()
  /** Hashes of what the user typed: a value the user wrote is the user's, wherever else it appears. */
  private readonly userValues = new Set<string>()
  private entered: EnteredSource[] = []
  private readonly named: NamedDestinations = namedDestinations()

  constructor(
    private readonly limits: TrackerLimits = DEFAULT_TRACKER_LIMITS,
    private readonly secrets: SecretTest = {}
  ) {}

  /** The user spoke: untrusted content read before no longer counts as "since the user's last message"; what they named is theirs. */
  userMessage(text: string): void {
    this.entered = []
    this.named.add(text)
    for (const piece of outputPieces(text)) this.remember(this.userValues, hashValue(piece.normal))
    for (const piece of argumentPieces(text)) this.remember(this.userValues, hashValue(piece.normal))
  }

  /**
   * A tool's output reached the model. Untrusted output counts as entered; its values are followed
   * with their origin — a secret when its path or content is one, the workspace for files and
   * commands, a page for the rest.
   */
  toolOutput(source: OutputSource, name: string, text: string): void {
    if (source.trust === 'trusted') return
    if (!this.entered.some((entered) => entered.kind === source.kind && entered.name === name)) {
      this.entered.push({ kind: source.kind, name })
      if (this.entered.length > this.limits.maxSources) this.entered.shift()
    }
    const fromFiles = source.kind === 'workspace_file' || source.kind === 'command_output'
    const secretFile = fromFiles && (this.secrets.isSecretPath?.(name) ?? false)
    for (const piece of outputPieces(text)) {
      const secret = secretFile || (fromFiles && (this.secrets.isSecretValue?.(piece.normal) ?? false))
      this.record(hashValue(piece.normal), { origin: secret ? 'secret' : fromFiles ? 'workspace' : 'page', from: name })
    }
  }

  /** The untrusted sources that entered the context since the user's last message, oldest first. */
  enteredSinceUser(): readonly EnteredSource[] {
    return this.entered
  }

  /** True when the user's own messages named this URL, host or path. */
  isUserNamed(destination: string): boolean {
    return this.named.has(destination)
  }

  /** The followed values the arguments carry (workspace and secret ones; not what the user typed), at most one per piece. */
  carried(args: Record<string, unknown>): CarriedValue[] {
    const found: CarriedValue[] = []
    const seen = new Set<string>()
    for (const [arg, text] of stringsOf(args, '')) {
      for (const piece of argumentPieces(text)) {
        const hash = hashValue(piece.normal)
        const known = this.values.get(hash)
        if (!known || known.origin === 'page' || this.userValues.has(hash) || seen.has(hash)) continue
        // A word inside a line already found is the same data, counted once.
        if (found.some((value) => value.arg === arg && value.start <= piece.start && piece.end <= value.end && value.end > value.start)) continue
        seen.add(hash)
        found.push({ arg, start: piece.start, end: piece.end, origin: known.origin, from: known.from })
      }
    }
    return found
  }

  /** How many values are followed now (for tests and the bound). */
  get size(): number {
    return this.values.size
  }

  private record(hash: string, value: { origin: ValueOrigin; from: string }): void {
    const before = this.values.get(hash)
    // A value seen in a secret stays a secret when a page repeats it.
    if (before && ORIGIN_RANK[before.origin] > ORIGIN_RANK[value.origin]) value = before
    this.values.delete(hash)
    this.values.set(hash, value)
    if (this.values.size > this.limits.maxValues) this.values.delete(this.values.keys().next().value!)
  }

  private remember(set: Set<string>, hash: string): void {
    set.delete(hash)
    set.add(hash)
    if (set.size > this.limits.maxValues) set.delete(set.values().next().value!)
  }
}

/** Every string in the arguments with its path (`body`, `headers.authorization`, `items.0`), to a depth of 6. */
function* stringsOf(value: unknown, path: string, depth = 0): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value]
  else if (depth < 6 && typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) yield* stringsOf(inner, path ? `${path}.${key}` : key, depth + 1)
  }
}

/** One tracker per conversation, for the process's life (docs/risk.md, "Provenance": what survives turns). */
export class ProvenanceBook {
  private readonly trackers = new Map<string, ProvenanceTracker>()

  constructor(
    private readonly limits: TrackerLimits = DEFAULT_TRACKER_LIMITS,
    private readonly secrets: SecretTest = {},
    /** Conversations kept at most: the least recently used one is dropped first. */
    private readonly maxConversations = 64
  ) {}

  /** The conversation's tracker, and whether it was made just now (then the caller may rebuild it from stored history). */
  of(conversationId: string): { tracker: ProvenanceTracker; fresh: boolean } {
    const known = this.trackers.get(conversationId)
    if (known) {
      this.trackers.delete(conversationId)
      this.trackers.set(conversationId, known)
      return { tracker: known, fresh: false }
    }
    const tracker = new ProvenanceTracker(this.limits, this.secrets)
    this.trackers.set(conversationId, tracker)
    if (this.trackers.size > this.maxConversations) this.trackers.delete(this.trackers.keys().next().value!)
    return { tracker, fresh: true }
  }
}
