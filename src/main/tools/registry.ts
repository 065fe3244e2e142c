import { jsonSchema, tool, type ToolSet } from 'ai'
import { z } from 'zod'
import { errorMessage } from '../../shared'
import { WorkspaceEscapeError } from '../workspace'
import { fail, type AnyTool, type ToolContext, type ToolOutput } from './define-tool'

export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string }

/**
 * Lists, filters and executes tools. It validates and runs; it never decides risk (the approval
 * policy does that before `execute` is called).
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>()
  /** Built once: the tool set is fixed, and the loop asks for it on every model step. */
  private modelTools: ToolSet | undefined

  constructor(tools: AnyTool[]) {
    for (const definition of tools) {
      if (this.tools.has(definition.name)) throw new Error(`Tool "${definition.name}" is registered twice`)
      this.tools.set(definition.name, definition)
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

  /**
   * Declarations for the model, without `execute` (the loop owns execution) and without SDK-side
   * validation: arguments are checked by `checkArgs`, so the model gets our error text.
   */
  toModelTools(): ToolSet {
    if (this.modelTools) return this.modelTools
    const set: ToolSet = {}
    for (const definition of this.tools.values()) {
      set[definition.name] = tool({
        description: definition.description,
        inputSchema: jsonSchema(z.toJSONSchema(definition.input, { io: 'input' }) as Parameters<typeof jsonSchema>[0])
      })
    }
    this.modelTools = set
    return set
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
    if (!definition) return fail(`Unknown tool "${name}".`)
    try {
      return await definition.run(args, ctx)
    } catch (error) {
      if (error instanceof WorkspaceEscapeError) return fail(error.message)
      if (ctx.signal.aborted) return fail('Cancelled by the user.')
      return fail(`${name} failed: ${describeFsError(error)}`)
    }
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
