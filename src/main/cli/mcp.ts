/**
 * `deskclaw mcp list | tools SERVER | call SERVER TOOL JSON` (docs/cli.md, docs/tools.md "MCP
 * servers"): the servers of mcp.json in the data folder, their state and tools, and one call made
 * by the person at the terminal (their own act, like `deskclaw serial`: no model, no approval).
 */
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { errorMessage, type McpServerStatus } from '../../shared'
import { DeskclawApp, defaultDataDir, settingsFromEnv } from '../app'
import { mapCallResult } from '../mcp'
import { UsageError } from './args'
import { EXIT, MAIN_HELP } from './help'

export interface McpArgs {
  action: 'list' | 'tools' | 'call'
  server?: string
  tool?: string
  args: Record<string, unknown>
  json: boolean
  dataDir?: string
  allowEnv?: string[]
  help: boolean
}

export function parseMcpArgs(argv: string[]): McpArgs {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, 'data-dir': { type: 'string' }, 'allow-env': { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true
    })
  } catch (error) {
    throw new UsageError(errorMessage(error))
  }
  const { values, positionals } = parsed
  const help = Boolean(values.help)
  const [action, server, tool, json, ...extra] = positionals
  const common = {
    json: Boolean(values.json),
    help,
    ...(values['data-dir'] ? { dataDir: resolve(values['data-dir']) } : {}),
    ...(values['allow-env'] ? { allowEnv: values['allow-env'].flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) } : {})
  }
  if (help) return { action: 'list', args: {}, ...common }
  if (action === 'list') {
    if (server !== undefined) throw new UsageError('mcp list takes no arguments')
    return { action, args: {}, ...common }
  }
  if (action === 'tools') {
    if (!server || tool !== undefined) throw new UsageError('usage: deskclaw mcp tools SERVER')
    return { action, server, args: {}, ...common }
  }
  if (action === 'call') {
    if (!server || !tool || extra.length > 0) throw new UsageError(`usage: deskclaw mcp call SERVER TOOL '{"name": "value"}'`)
    let args: unknown = {}
    if (json !== undefined) {
      try {
        args = JSON.parse(json)
      } catch (error) {
        throw new UsageError(`the arguments are not JSON: ${errorMessage(error)}`)
      }
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) throw new UsageError('the arguments must be a JSON object')
    return { action, server, tool, args: args as Record<string, unknown>, ...common }
  }
  throw new UsageError(`mcp needs list, tools SERVER or call SERVER TOOL JSON (got "${action ?? ''}")`)
}

export async function mcpCommand(args: McpArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const app = DeskclawApp.create({
    dataDir: args.dataDir ?? defaultDataDir(),
    overrides: { ...settingsFromEnv(process.env), ...(args.allowEnv ? { allowedEnv: args.allowEnv } : {}) },
    // ready() below starts them, once.
    startMcpServers: false
  })
  try {
    await app.mcp.ready()
    if (args.action === 'list') {
      const overview = app.mcp.overview()
      if (args.json) process.stdout.write(JSON.stringify(overview, null, 2) + '\n')
      else process.stdout.write(formatList(overview.file, overview.servers, overview.problems))
      return overview.problems.length > 0 ? EXIT.failed : EXIT.done
    }
    const status = app.mcp.status(args.server!)
    if (args.action === 'tools') {
      const schemas = new Map(app.mcp.connection(args.server!).tools.map((tool) => [tool.name, tool]))
      if (args.json) process.stdout.write(JSON.stringify(status.tools.map((tool) => ({ ...tool, inputSchema: schemas.get(tool.name)?.inputSchema })), null, 2) + '\n')
      else process.stdout.write(formatTools(status))
      return status.state === 'ready' ? EXIT.done : EXIT.failed
    }
    const outcome = await app.mcp.connection(args.server!).call(args.tool!, args.args, new AbortController().signal)
    if (!outcome.ok) {
      process.stderr.write(`deskclaw: ${outcome.error}\n${outcome.log.map((line) => `  ${line}\n`).join('')}`)
      return EXIT.failed
    }
    if (args.json) {
      process.stdout.write(JSON.stringify(outcome.result, null, 2) + '\n')
    } else {
      const output = mapCallResult(outcome.result)
      const attachments = (output.attachments ?? []).map((a) => `[${a.kind} ${a.mediaType}, ${a.data.byteLength} bytes]\n`).join('')
      process.stdout.write(`${output.forLlm}\n${attachments}`)
    }
    return outcome.result.isError ? EXIT.failed : EXIT.done
  } finally {
    await app.close()
  }
}

function formatList(file: string, servers: McpServerStatus[], problems: string[]): string {
  const lines = [`MCP servers (${file}):`]
  if (servers.length === 0) lines.push('  (none)')
  for (const server of servers) {
    const where = server.config.command ? [server.config.command, ...(server.config.args ?? [])].join(' ') : (server.config.url ?? '')
    const tools = server.state === 'ready' ? `, ${server.tools.length} tools` : ''
    lines.push(`  ${server.name}  ${server.transport ?? '?'}  ${server.state}${tools}  ${where}${server.error ? `\n    ${server.error}` : ''}`)
  }
  for (const problem of problems) lines.push(`Problem: ${problem}`)
  return lines.join('\n') + '\n'
}

function formatTools(status: McpServerStatus): string {
  if (status.state !== 'ready') return `${status.name}: ${status.state}${status.error ? `: ${status.error}` : ''}\n${status.log.slice(-10).map((l) => `  ${l}\n`).join('')}`
  const lines = status.tools.map((tool) => {
    const how = tool.autoApproved ? 'allowed' : tool.read ? 'read' : 'asks'
    return `  ${tool.qualifiedName}  [${how}]  ${tool.description.split('\n')[0]}`
  })
  return [`${status.name}: ${status.tools.length} tools`, ...lines].join('\n') + '\n'
}
