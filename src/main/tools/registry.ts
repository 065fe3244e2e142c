import { z } from 'zod'
import { errorMessage, type ToolInfo } from '../../shared'
import type { RiskSubjectKind } from '../risk'
import { WorkspaceEscapeError } from '../workspace'
import { firstSentence, trimJsonSchema, type ToolDescriptionStyle } from './compact'
import { fail, text, TOOL_NAME_PATTERN, ToolRefusal, withDisplay, type AnyTool, type ToolContext, type ToolOutput } from './define-tool'
import { namespacedToolName, type ToolSource } from './source'

export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string }

/**
 * Composes tool sources (built-in packs and dynamic ones), lists, validates and executes their
 * tools. It never decides risk: the runner asks the risk engine before `execute` is called.
 */
/** A tool as the model is told of it. */
export interface ModelToolDeclaration {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export class ToolRegistry {
  private readonly sources = new Map<string, { source: ToolSource; detach?: () => void }>()
  private tools = new Map<string, AnyTool>()
  private sourceIds = new Map<string, string>()
  private readonly listeners = new Set<() => void>()
  /** Rebuilt only after a source changed, per style; the loop asks for them on every model step. */
  private modelTools: Partial<Record<ToolDescriptionStyle, readonly ModelToolDeclaration[]>> = {}
  private catalogCache: ToolInfo[] | undefined

  constructor(sources: ToolSource[] = []) {
    for (const source of sources) this.attach(source)
    this.rebuild()
  }

  /** Adds a source; its tools are visible from the next model step on. Returns its removal. */
  addSource(source: ToolSource): () => void {
    this.attach(source)
    this.changed()
    return () => this.removeSource(source.id)
  }

  removeSource(id: string): boolean {
    const entry = this.sources.get(id)
    if (!entry) return false
    entry.detach?.()
    this.sources.delete(id)
    this.changed()
    return true
  }

  /** Called after any change of the tool set (a source added, removed or changed). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  list(): AnyTool[] {
    return [...this.tools.values()]
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name)
  }

  names(): string[] {
    return [...this.tools.keys()]
  }

  /** The id of the source a tool comes from (a pack's name, an MCP server's source id). */
  sourceOf(name: string): string | undefined {
    return this.sourceIds.get(name)
  }

  /** How a tool's subject is judged (the risk engine reads rule examples this way). */
  subjectKindOf(name: string): RiskSubjectKind | undefined {
    return this.tools.get(name)?.subjectKind
  }

  /** What front doors need to show tools: names, domains, access and message tables. */
  catalog(): ToolInfo[] {
    this.catalogCache ??= this.list().map((definition) => ({
      name: definition.name,
      category: definition.category,
      access: definition.access,
      ...(definition.subjectKind ? { subjectKind: definition.subjectKind } : {}),
      messages: definition.messages
    }))
    return this.catalogCache
  }

  /**
   * Declarations for the model: name, description and the JSON Schema of the arguments (zod's own
   * conversion, or the schema an MCP server wrote), in full or compact (docs/tools.md, "Compact tool
   * descriptions": each tool's short description and its schema without annotations). Nothing
   * validates against it on the way back: arguments are checked by `checkArgs`, so the model gets
   * our error text. The same array per style until a source changes, so a model client may key its
   * own conversions on it.
   */
  toModelTools(style: ToolDescriptionStyle = 'full'): readonly ModelToolDeclaration[] {
    const cached = this.modelTools[style]
    if (cached) return cached
    const declared = [...this.tools.values()].map((definition) => {
      const schema = definition.inputJsonSchema ?? (z.toJSONSchema(definition.input, { io: 'input' }) as Record<string, unknown>)
      return style === 'full'
        ? { name: definition.name, description: definition.description, inputSchema: schema }
        : { name: definition.name, description: definition.shortDescription ?? firstSentence(definition.description), inputSchema: trimJsonSchema(schema) }
    })
    this.modelTools[style] = declared
    return declared
  }

  checkArgs(name: string, raw: unknown): ArgsCheck {
    const definition = this.tools.get(name)
    if (!definition) {
      return { ok: false, error: `Unknown tool "${name}". Available tools: ${this.names().join(', ')}.` }
    }
    if (typeof raw === 'string') {
      return { ok: false, error: `Arguments for ${name} are not valid JSON. Send a JSON object matching the schema.` }
    }
    const parsed = definition.input.safeParse(raw ?? {})
    if (!parsed.success) {
      return {
        ok: false,
        error: `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}\nFix the arguments and call again.`
      }
    }
    return { ok: true, args: parsed.data as Record<string, unknown> }
  }

  /** Runs a tool whose arguments passed `checkArgs`. Never throws: failures become error results. */
  async execute(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    const definition = this.tools.get(name)
    // These lines are the runner's texts (toolRun.*), translated by the UI: no tool said them.
    if (!definition) return withDisplay(fail(`The tool "${name}" is no longer available.`), text('toolRun.unavailable', { tool: name }))
    try {
      return await definition.run(args, ctx)
    } catch (error) {
      if (error instanceof WorkspaceEscapeError) return withDisplay(fail(error.message), text('toolRun.outsideWorkspace', { path: error.requested }))
      if (error instanceof ToolRefusal) return withDisplay(fail(error.message), error.display)
      if (ctx.signal.aborted) return withDisplay(fail('Cancelled by the user.'), text('toolRun.cancelled'))
      return withDisplay(fail(`${name} failed: ${describeFsError(error)}`), text('toolRun.crashed', { tool: name }))
    }
  }

  private attach(source: ToolSource): void {
    if (this.sources.has(source.id)) throw new Error(`Tool source "${source.id}" is added twice`)
    const entry: { source: ToolSource; detach?: () => void } = { source }
    this.sources.set(source.id, entry)
    entry.detach = source.onChange?.(() => this.changed())
  }

  private changed(): void {
    this.rebuild()
    for (const listener of [...this.listeners]) {
      try {
        listener()
      } catch (error) {
        console.error('[deskclaw] tool change listener failed:', error)
      }
    }
  }

  /** Built-in names are kept as they are; a dynamic source's tool that collides with one is left out, with a warning. */
  private rebuild(): void {
    const tools = new Map<string, AnyTool>()
    const sourceIds = new Map<string, string>()
    for (const { source } of this.sources.values()) {
      for (const definition of source.tools()) {
        const name = source.namespace ? namespacedToolName(source.namespace, definition.name) : definition.name
        if (!TOOL_NAME_PATTERN.test(name)) throw new Error(`Tool name "${name}" must be 1-64 letters, digits, "_" or "-"`)
        if (tools.has(name)) {
          const problem = `Tool "${name}" from source "${source.id}" has the name of another tool`
          if (!source.namespace) throw new Error(problem)
          console.warn(`[deskclaw] ${problem}; it is left out.`)
          continue
        }
        tools.set(name, name === definition.name ? definition : { ...definition, name })
        sourceIds.set(name, source.id)
      }
    }
    this.tools = tools
    this.sourceIds = sourceIds
    this.modelTools = {}
    this.catalogCache = undefined
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'ENOENT':
      return 'no such file or folder'
    case 'EISDIR':
      return 'that path is a folder'
    case 'ENOSPC':
      return 'the disk is full'
    default:
      return errorMessage(error)
  }
}
