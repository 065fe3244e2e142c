import { z } from 'zod'
import type { ApprovalPreview, ImageMediaType, ToolMessages, ToolText } from '../../shared'
import { isOutputSource, isToolSink, type OutputSource, type ToolSink } from '../provenance'
import type { RiskSubjectKind, ToolAccess, ToolCategory } from '../risk'

/**
 * Whether an identical repeat of a call can give a new answer or effect (docs/architecture.md,
 * "Result cache and repeated writes"). `same-answer`: with nothing written since, the same call
 * gives the same result and does nothing new (a workspace file read or written) — a read is then
 * served from the run's cache and a write is flagged instead of run. `may-differ`: the world moves
 * without us (a command's output, a page, the screen, a device, a server) — never cached, never refused.
 */
export const ToolRepeatKinds = ['same-answer', 'may-differ'] as const
export type ToolRepeat = (typeof ToolRepeatKinds)[number]

/** The subject of one call: its value, and the argument it came from (so findings can point into it). */
export interface RiskSubjectValue {
  value: string
  arg?: string
}

/** Hidden context the executor injects per call; never asked of the model. Services come through the pack's factory. */
export interface ToolContext {
  workspace: string
  conversationId: string
  runId: string
  callId: string
  signal: AbortSignal
  /** Live output for the timeline (tool_output_delta). */
  onOutput(stream: 'stdout' | 'stderr', chunk: string): void
  /** A step of a long call, with the image it checked (tool_progress). */
  onProgress?(progress: ToolProgress): void
  /**
   * For tools that confirm during their run (`confirmsDuringRun`): asks the person with this
   * preview when the mode asks (supervised), answers allowed at once when it does not (full).
   */
  confirm?(preview: ApprovalPreview): Promise<ToolConfirmAnswer>
}

/** One step of a long call as the timeline shows it: a message code, whether it passed, what was read. */
export interface ToolProgress {
  step: string
  ok: boolean
  detail: string
  /** The detail as a message code of the tool's own texts, where it has words of its own (not only what was read). */
  detailText?: ToolText
  image?: Extract<ToolAttachment, { kind: 'image' }>
}

export type ToolConfirmAnswer = { allowed: true } | { allowed: false; reason: string }

/** An image or file a tool returns: to the model (images, for models that accept them), the store and the timeline. */
export type ToolAttachment =
  | { kind: 'image'; mediaType: ImageMediaType; data: Uint8Array; name?: string; width?: number; height?: number }
  | { kind: 'file'; mediaType: string; data: Uint8Array; name: string }

export interface ToolOutput {
  /** What the model receives (the loop truncates it). */
  forLlm: string
  /** What the user sees in the timeline, when it differs (e.g. the full output). */
  forUser?: string
  /**
   * The result in one line the UI translates, shown above the raw output: a key of this tool's
   * own `messages` (by convention `result.…`, in en and zh-CN) with params (docs/architecture.md,
   * "Texts from main"). The raw output stays what the tool printed.
   */
  display?: ToolText
  isError: boolean
  attachments?: ToolAttachment[]
  /** Which runtime ran it, for tools that run commands (shown in the timeline). */
  ranIn?: string
}

/** What a preview may use besides the arguments. */
export interface PreviewContext {
  workspace: string
  /** The conversation asking (a desktop preview marks its last screenshot). */
  conversationId?: string
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject> {
  /** In a pack: letters, digits, `_` and `-`, at most 64 characters (what every model API accepts). */
  name: string
  description: string
  /**
   * One sentence on one line (at most 200 characters): what the tool does and what its key
   * arguments mean — what a model with a small context window reads instead of `description`
   * (docs/tools.md, "Compact tool descriptions"). Every built-in tool has one; without it the first
   * sentence of `description` is used.
   */
  shortDescription?: string
  category: ToolCategory
  access: ToolAccess
  /**
   * What the output is (docs/risk.md, "Provenance"): trusted (the user's words, DeskClaw's own
   * state) or untrusted with the kind of place it came from. Untrusted output reaches the model
   * marked as content, and makes later sending or persisting calls ask.
   */
  source: OutputSource
  /**
   * What a call can do with data (docs/risk.md, "Provenance"): send it out, persist it as
   * instructions, or neither — per call where it depends on the arguments (a write to a git hook).
   */
  sink: ToolSink<z.output<I>>
  /** Whether an identical repeat can give a new answer or effect (see ToolRepeatKinds). */
  repeat: ToolRepeat
  input: I
  /**
   * The JSON Schema the model sees, when the tool came with one (an MCP server's): passed through
   * as it is. `input` still validates the arguments (docs/architecture.md, "Adding a tool source").
   */
  inputJsonSchema?: Record<string, unknown>
  /** How the subject is judged; `subject(args)` gives its value for one call. */
  subjectKind?: RiskSubjectKind
  /** What the risk engine and rules match on for this call; null when the call has none. */
  subject?(args: z.output<I>): RiskSubjectValue | null
  /**
   * True when this call asks in supervised mode even though it is a read (a setting the user chose,
   * e.g. "screenshots ask"; something as private as the clipboard). Readonly mode still allows it only after asking.
   */
  asksFirst?(): boolean
  /**
   * The call asks in every mode, full autonomy included (readonly still denies a write): for what
   * the user must agree to each time, such as a task that will run by itself later (the `schedule` tool).
   */
  asksAlways?: boolean
  /**
   * True when this call will run outside any OS sandbox although the tool runs in one when it can
   * (run_code with none available). Full autonomy then still asks, as it does for shell commands
   * without a sandbox (docs/risk.md). Read after `preview`, which decides where the call runs.
   */
  runsUnsandboxed?(args: z.output<I>): boolean
  /**
   * What "allow for this conversation" covers (docs/risk.md, "Grants"): by default exactly this
   * call; a tool may widen it to every call with the same scope (desktop input: the tool itself,
   * a serial port: the port). The approval still shows this call.
   */
  grantScope?(args: z.output<I>): string
  /**
   * The tool asks its own question in the middle of its run, once it can show what will really
   * happen (send-text: the verified chat and the pasted draft), through `ctx.confirm`. The question
   * before the run is then skipped, and no grant or saved rule answers it: each call asks once.
   */
  confirmsDuringRun?: boolean
  /**
   * The arguments as they may be stored and shown, for a tool one of whose arguments is a secret
   * (a password to type): a copy with the secret replaced (docs/tools.md, "Secrets in arguments").
   * The event log, approvals, the audit log and the stored model history get this copy; only the
   * run gets the original. Given the raw input too (a call that failed validation), so it must
   * accept any object.
   */
  redact?(args: Record<string, unknown>): Record<string, unknown>
  /**
   * One line for the timeline and the CLI (`ls -la`, `notes/a.txt`): the call's own values as they
   * are, or — when the line needs words ("the whole screen") — a key of this tool's `messages` with
   * params (`text('summary.screen')`), which the UI says in its language (issue 22, item 5).
   */
  summary(args: z.output<I>): string | ToolText
  /** What an approval shows: exactly what will run, in the tool's own message keys. May throw to refuse the call. */
  preview(args: z.output<I>, ctx: PreviewContext): ApprovalPreview | Promise<ApprovalPreview>
  /** The tool's user-visible strings (titles, labels), in English and Simplified Chinese. */
  messages: ToolMessages
  /** Told to the model when its output was cut: how to read the rest. */
  truncationHint?: string
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutput>
}

export type AnyTool = ToolDefinition<z.ZodObject>

/** Names every model API accepts (OpenAI's function-name rule is the strictest). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

export function defineTool<I extends z.ZodObject>(definition: ToolDefinition<I>): AnyTool {
  // A pack's names must already be what model APIs accept (the registry checks); a dynamic source's
  // (an MCP server's) are made so by its namespace, so here only empty or unprintable names fail.
  if (definition.name.length === 0 || definition.name.length > 128 || /[\s\p{Cc}]/u.test(definition.name)) {
    throw new Error(`Tool name "${definition.name}" must be 1-128 printable characters without spaces`)
  }
  // The type requires both; a tool built from data (a JavaScript caller, a cast) is checked here too.
  if (!isOutputSource(definition.source)) throw new Error(`Tool "${definition.name}" must declare what its output is (source: trusted or untrusted with a kind)`)
  if (!isToolSink(definition.sink)) throw new Error(`Tool "${definition.name}" must declare what it can do with data (sink: { may, of })`)
  if (!(ToolRepeatKinds as readonly string[]).includes(definition.repeat)) {
    throw new Error(`Tool "${definition.name}" must declare repeat: ${ToolRepeatKinds.join(' or ')}`)
  }
  if ((definition.subjectKind === undefined) !== (definition.subject === undefined)) {
    throw new Error(`Tool "${definition.name}" must declare subjectKind and subject together`)
  }
  return definition as unknown as AnyTool
}

/** The subject of one call as the risk engine takes it (kind and value), or null when the tool declares none. */
export function riskSubjectOf(definition: AnyTool, args: Record<string, unknown>): { kind: RiskSubjectKind; value: string; arg?: string } | null {
  const value = definition.subject?.(args) ?? null
  return value && definition.subjectKind ? { kind: definition.subjectKind, ...value } : null
}

export const ok = (forLlm: string, forUser?: string): ToolOutput => ({ forLlm, forUser, isError: false })
export const fail = (forLlm: string): ToolOutput => ({ forLlm, isError: true })
/** `output` with the line the timeline shows for it: `withDisplay(ok('Wrote 3 bytes to a.txt.'), text('result.wrote', { … }))`. */
export const withDisplay = (output: ToolOutput, line: ToolText): ToolOutput => ({ ...output, display: line })

/** The arguments as they may be stored and shown: the tool's redact(), or the arguments themselves. */
export function shownArgs(definition: AnyTool | undefined, args: unknown): unknown {
  if (!definition?.redact || typeof args !== 'object' || args === null || Array.isArray(args)) return args
  try {
    return definition.redact(args as Record<string, unknown>)
  } catch {
    // A redaction that fails must not leak what it was meant to hide.
    return {}
  }
}

/**
 * A call the tool will not run, said in its own words: thrown by `preview` (the call is refused
 * before anyone is asked) or by `run`; `display` is a key of the tool's `messages` (both languages).
 */
export class ToolRefusal extends Error {
  constructor(
    message: string,
    readonly display: ToolText
  ) {
    super(message)
    this.name = 'ToolRefusal'
  }
}

/** A translation key with parameters, as previews use them. */
export const text = (key: string, params?: Record<string, string | number>) => (params ? { key, params } : { key })
