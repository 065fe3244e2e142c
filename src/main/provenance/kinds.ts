/**
 * The provenance vocabulary (docs/risk.md, "Provenance"): what a tool's output is (its source) and
 * what a call can do with data (its sink). Every tool declares both in `defineTool`.
 */

/** Where untrusted output comes from. Trusted output is the user's own words or DeskClaw's own state. */
export const UntrustedSourceKinds = [
  'web_page',
  'browser_page',
  'mcp',
  'chat_screen',
  'workspace_file',
  'command_output',
  'device',
  'memory',
  'sub_agent'
] as const
export type UntrustedSourceKind = (typeof UntrustedSourceKinds)[number]

/** A tool's output: trusted, or untrusted with the kind of place it came from. */
export type OutputSource = { trust: 'trusted' } | { trust: 'untrusted'; kind: UntrustedSourceKind }

/** How a call sends data out of DeskClaw. */
export const SendChannels = ['network', 'navigation', 'typing', 'form', 'mcp', 'send_text', 'device', 'code'] as const
export type SendChannel = (typeof SendChannels)[number]

/** Where a call persists text that later runs or instructs. */
export const PersistChannels = ['memory', 'schedule', 'delegate', 'run_file'] as const
export type PersistChannel = (typeof PersistChannels)[number]

/**
 * What one call does with data: sends it somewhere (`destination`: the URL, host, server, chat or
 * port, null when the call does not name one, such as typing into the open page), persists it as
 * instructions (`target`: the memory book, the schedule, the file that runs), or neither.
 */
export type CallSink =
  | { kind: 'none' }
  | { kind: 'send'; via: SendChannel; destination: string | null }
  | { kind: 'persist'; via: PersistChannel; target: string }

export const NO_SINK: CallSink = { kind: 'none' }

/**
 * A tool's sink declaration: `may` lists what its calls can be (the generator test checks it against
 * the tool's category), `of(args)` says what this call is. A file write is a `persist` only when the
 * path is a file that runs; a shell command a `send` only when it reaches the network.
 */
export interface ToolSink<A = Record<string, unknown>> {
  may: readonly ('send' | 'persist')[]
  of(args: A): CallSink
}

/** A tool that neither sends nor persists. */
export const noSink: ToolSink<never> = { may: [], of: () => NO_SINK }

/** A tool whose every call sends through `via` to the destination `destination(args)` names. */
export function sendsTo<A>(via: SendChannel, destination: (args: A) => string | null): ToolSink<A> {
  return { may: ['send'], of: (args) => ({ kind: 'send', via, destination: destination(args) }) }
}

/** A tool whose every call persists instructions through `via` into `target`. */
export function persistsTo<A>(via: PersistChannel, target: string): ToolSink<A> {
  return { may: ['persist'], of: () => ({ kind: 'persist', via, target }) }
}

export const trusted: OutputSource = { trust: 'trusted' }
export const untrusted = (kind: UntrustedSourceKind): OutputSource => ({ trust: 'untrusted', kind })

/** True when `value` is a well-formed source declaration (defineTool checks it at run time too). */
export function isOutputSource(value: unknown): value is OutputSource {
  if (typeof value !== 'object' || value === null) return false
  const source = value as { trust?: unknown; kind?: unknown }
  if (source.trust === 'trusted') return source.kind === undefined
  return source.trust === 'untrusted' && (UntrustedSourceKinds as readonly unknown[]).includes(source.kind)
}

export function isToolSink(value: unknown): value is ToolSink {
  if (typeof value !== 'object' || value === null) return false
  const sink = value as { may?: unknown; of?: unknown }
  return Array.isArray(sink.may) && sink.may.every((kind) => kind === 'send' || kind === 'persist') && typeof sink.of === 'function'
}
