import { z } from 'zod'
import type { ApprovalPreview } from '../../shared'
import type { Runtime } from '../runtime'

/** ZeptoClaw's categories (DESIGN §3). The policy reads them; the registry never decides risk. */
export const ToolCategories = [
  'fs_read',
  'fs_write',
  'network_read',
  'network_write',
  'shell',
  'desktop',
  'hardware',
  'memory',
  'messaging',
  'destructive'
] as const
export type ToolCategory = (typeof ToolCategories)[number]

/** Read-only categories: the only ones `readonly` autonomy allows and `supervised` runs without asking. */
export const READ_CATEGORIES: ReadonlySet<ToolCategory> = new Set(['fs_read', 'network_read'])

/** Hidden context the executor injects; never asked of the model (NanoClaw `_inject_context`). */
export interface ToolContext {
  workspace: string
  conversationId: string
  runId: string
  callId: string
  signal: AbortSignal
  /** Where commands run; chosen by settings, never by the model. */
  runtime: Runtime
  /** Live output for the timeline (tool_output_delta). */
  onOutput(stream: 'stdout' | 'stderr', chunk: string): void
}

export interface ToolOutput {
  /** What the model receives (the loop truncates it). */
  forLlm: string
  /** What the user sees in the timeline, when it differs (e.g. the full output). */
  forUser?: string
  isError: boolean
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject> {
  name: string
  description: string
  /** One line, for small-context models and the UI. */
  compactDescription: string
  category: ToolCategory
  input: I
  /** What an approval shows: exactly what will run, resolved against the workspace. */
  preview(args: z.output<I>, ctx: { workspace: string; runtime: string }): ApprovalPreview
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutput>
}

export type AnyTool = ToolDefinition<z.ZodObject>

export function defineTool<I extends z.ZodObject>(definition: ToolDefinition<I>): ToolDefinition<I> {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(definition.name)) {
    throw new Error(`Tool name "${definition.name}" must be snake_case`)
  }
  return definition
}

export const ok = (forLlm: string, forUser?: string): ToolOutput => ({ forLlm, forUser, isError: false })
export const fail = (forLlm: string): ToolOutput => ({ forLlm, isError: true })
