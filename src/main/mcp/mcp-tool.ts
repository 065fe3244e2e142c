import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { defineTool, fail, firstSentence, text, withDisplay, type AnyTool, type ToolOutput } from '../tools'
import { untrusted } from '../provenance'
import type { McpConnection } from './connection'
import { mapCallResult } from './results'

/** The texts every MCP tool shows (en, zh-CN); an MCP server's own words are never translated. */
export const MCP_TOOL_MESSAGES = {
  en: {
    title: 'Run "{tool}" of the MCP server "{server}"',
    server: 'MCP server',
    tool: 'Tool',
    arguments: 'Arguments',
    'result.done': '"{server}" answered {tool}.',
    'result.toolError': '"{server}" says {tool} failed.',
    'result.serverFailed': 'The MCP server "{server}" failed during {tool}; it is started again on the next call.'
  },
  'zh-CN': {
    title: '运行 MCP 服务器“{server}”的工具“{tool}”',
    server: 'MCP 服务器',
    tool: '工具',
    arguments: '参数',
    'result.done': '“{server}”已完成 {tool}。',
    'result.toolError': '“{server}”报告 {tool} 失败。',
    'result.serverFailed': 'MCP 服务器“{server}”在执行 {tool} 时出错；下次调用时会重新启动。'
  }
}

export interface McpToolPolicy {
  /** The user trusts this server's readOnlyHint: such a tool counts as a read. */
  trustReadOnlyHints: boolean
}

/** Whether a server's tool counts as a read: only when it says so and the user trusts that server's hints. */
export function isTrustedRead(tool: Tool, policy: McpToolPolicy): boolean {
  return policy.trustReadOnlyHints && tool.annotations?.readOnlyHint === true
}

/**
 * One tool of one server as a DeskClaw tool (docs/tools.md, "MCP servers"): its JSON Schema goes to
 * the model as it is and validates the arguments; category `mcp`; an `execute` unless it is a
 * trusted read, so it asks in supervised mode unless the user allowed it (docs/risk.md, "MCP tools").
 */
export function createMcpTool(connection: McpConnection, tool: Tool, policy: McpToolPolicy): AnyTool {
  const server = connection.name
  const schema = { ...tool.inputSchema, type: 'object' } as Record<string, unknown>
  const label = { server, tool: tool.name }
  return defineTool({
    name: tool.name,
    repeat: 'may-differ',
    description: describe(tool, server),
    // Compact declarations (docs/tools.md, "Compact tool descriptions"): the server's first sentence; its name is in the tool's.
    shortDescription: firstSentence(ownDescription(tool)),
    category: 'mcp',
    access: isTrustedRead(tool, policy) ? 'read' : 'execute',
    // Everything a server says is its content (docs/risk.md, "Provenance"); every call sends its arguments to it.
    source: untrusted('mcp'),
    sink: { may: ['send'], of: () => ({ kind: 'send', via: 'mcp', destination: server }) },
    input: inputValidator(schema),
    inputJsonSchema: schema,
    // The server is what a saved "always allow" names with the tool (docs/risk.md, "MCP tools").
    subjectKind: 'server',
    subject: () => ({ value: server }),
    // "Allow for this conversation" covers the tool, whatever its arguments: the server decides what they mean.
    grantScope: () => `mcp:${server}:${tool.name}`,
    summary: (args) => oneLine(args),
    preview: (args) => ({
      title: text('title', label),
      fields: [
        { label: text('server'), value: server },
        { label: text('tool'), value: tool.name },
        { label: text('arguments'), value: JSON.stringify(args, null, 2), code: true }
      ]
    }),
    messages: MCP_TOOL_MESSAGES,
    async run(args, ctx): Promise<ToolOutput> {
      const outcome = await connection.call(tool.name, args, ctx.signal, (line) => ctx.onOutput('stderr', line))
      if (!outcome.ok) {
        const log = outcome.log.length > 0 ? `\nLast lines of its log:\n${outcome.log.join('\n')}` : ''
        if (ctx.signal.aborted) return fail(outcome.error)
        return withDisplay(fail(`${outcome.error}${log}\nIt is started again on the next call.`), text('result.serverFailed', label))
      }
      const output = mapCallResult(outcome.result)
      return withDisplay(output, text(output.isError ? 'result.toolError' : 'result.done', label))
    }
  })
}

function describe(tool: Tool, server: string): string {
  return `${ownDescription(tool)}\n(Tool "${tool.name}" of the MCP server "${server}".)`
}

function ownDescription(tool: Tool): string {
  return tool.description?.trim() || tool.annotations?.title || tool.title || tool.name
}

/**
 * Validates arguments against the server's JSON Schema through zod's converter; a schema it cannot
 * convert accepts any object (the server validates again and says what is wrong).
 */
function inputValidator(schema: Record<string, unknown>): z.ZodObject {
  try {
    const converted = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
    if (converted instanceof z.ZodObject) return converted
  } catch {
    // fall through to the permissive validator
  }
  return z.looseObject({})
}

function oneLine(args: Record<string, unknown>): string {
  const json = JSON.stringify(args)
  return json.length > 120 ? `${json.slice(0, 119)}…` : json
}
