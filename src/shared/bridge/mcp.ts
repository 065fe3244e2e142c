/**
 * MCP servers over the bridge (docs/tools.md, "MCP servers"): the entries of `mcp.json` in the
 * shape Claude Desktop and Cursor use, each server's state, its tools and the tail of its log.
 */
import { z } from 'zod'
import { defineCall } from './define-call'

/** A server's name: its tools are called `mcp__<name>__<tool>`. */
export const McpServerNameSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, ".", "_" and "-"')

/**
 * One entry of `mcpServers`. Claude Desktop's and Cursor's keys (`command`, `args`, `env`, `url`,
 * `headers`, `type`) mean what they mean there; `disabled` and `autoApprove` are Cline's; the rest
 * is DeskClaw's. Unknown keys are kept, so a pasted file is written back as it came.
 */
export const McpServerConfigSchema = z.looseObject({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** `stdio`, `http` / `streamable-http` (SSE tried when it fails), or `sse` only. Default: by command or url. */
  type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
  disabled: z.boolean().optional(),
  /** Tools that run without asking in supervised mode; `"*"` is every tool of the server. */
  autoApprove: z.array(z.string()).optional(),
  /** Trust the server's `readOnlyHint`: such tools count as reads (they run without asking; readonly mode allows them). */
  trustReadOnlyHints: z.boolean().optional(),
  /** Seconds a call may take before it is given up and the server restarted (default 120). */
  timeout: z.number().positive().max(3600).optional()
})
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>

export const McpServerStateSchema = z.enum(['disabled', 'stopped', 'connecting', 'ready', 'failed'])
export type McpServerState = z.infer<typeof McpServerStateSchema>

export const McpToolInfoSchema = z.object({
  /** The server's own name for it. */
  name: z.string(),
  /** The name the model calls (`mcp__server__tool`). */
  qualifiedName: z.string(),
  description: z.string(),
  readOnlyHint: z.boolean(),
  /** Counted as a read (readOnlyHint with trustReadOnlyHints). */
  read: z.boolean(),
  autoApproved: z.boolean()
})
export type McpToolInfo = z.infer<typeof McpToolInfoSchema>

export const McpServerStatusSchema = z.object({
  name: z.string(),
  config: McpServerConfigSchema,
  transport: z.enum(['stdio', 'streamable-http', 'sse']).nullable(),
  state: McpServerStateSchema,
  /** Why it failed (English, from the server or the transport). */
  error: z.string().optional(),
  /** The server's own name and version, once connected. */
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  tools: z.array(McpToolInfoSchema),
  /** How often the server has been (re)started in this session. */
  starts: z.number().int(),
  /** Last lines of its stderr and DeskClaw's notes about it. */
  log: z.array(z.string())
})
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>

export const McpOverviewSchema = z.object({
  /** The file the servers are read from and written to. */
  file: z.string(),
  servers: z.array(McpServerStatusSchema),
  /** Why the file could not be read, or an entry was left out. */
  problems: z.array(z.string())
})
export type McpOverview = z.infer<typeof McpOverviewSchema>

export const mcpCalls = {
  'mcp.list': defineCall(z.object({}), McpOverviewSchema),
  /** Adds or replaces a server (`previousName` renames); connects it when enabled. */
  'mcp.save': defineCall(
    z.object({ name: McpServerNameSchema, config: McpServerConfigSchema, previousName: McpServerNameSchema.optional() }),
    McpOverviewSchema
  ),
  'mcp.remove': defineCall(z.object({ name: McpServerNameSchema }), McpOverviewSchema),
  /** Stops and starts a server again (after fixing what made it fail). */
  'mcp.restart': defineCall(z.object({ name: McpServerNameSchema }), McpOverviewSchema)
} as const
