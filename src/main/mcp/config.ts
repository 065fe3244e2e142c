import { readFileSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { errorMessage, McpServerConfigSchema, McpServerNameSchema, type McpServerConfig } from '../../shared'

/** The file beside the database, in the shape Claude Desktop and Cursor use (docs/tools.md, "MCP servers"). */
export const MCP_CONFIG_FILE = 'mcp.json'

export const mcpConfigPath = (dataDir: string): string => join(dataDir, MCP_CONFIG_FILE)

export interface McpConfigFile {
  servers: Map<string, McpServerConfig>
  /** Why the file or an entry was not used; the rest still is. */
  problems: string[]
  /** The file's other top-level keys, written back unchanged. */
  rest: Record<string, unknown>
  /** The file as a whole could not be used (unreadable, not JSON, no servers object): no server was read from it. */
  broken?: boolean
}

export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse'

/** How a server is reached: its `type`, else `command` means stdio and `url` HTTP. */
export function transportOf(config: McpServerConfig): McpTransportKind | null {
  if (config.type === 'stdio') return config.command ? 'stdio' : null
  if (config.type === 'sse') return config.url ? 'sse' : null
  if (config.type) return config.url ? 'streamable-http' : null
  if (config.command) return 'stdio'
  if (config.url) return 'streamable-http'
  return null
}

/** Reads `mcp.json`. A missing file is no servers; a broken one is no servers and a problem that says why. */
export function readMcpConfig(path: string): McpConfigFile {
  const empty = (problems: string[]): McpConfigFile => ({ servers: new Map(), problems, rest: {}, ...(problems.length > 0 ? { broken: true } : {}) })
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty([])
    return empty([`${path}: ${errorMessage(error)}`])
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return empty([`${path}: not valid JSON (${errorMessage(error)})`])
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return empty([`${path}: expected an object with "mcpServers"`])
  const { mcpServers, ...rest } = parsed as Record<string, unknown>
  const file: McpConfigFile = { servers: new Map(), problems: [], rest }
  if (mcpServers === undefined) return file
  if (!mcpServers || typeof mcpServers !== 'object' || Array.isArray(mcpServers)) {
    return { ...file, problems: [`${path}: "mcpServers" must be an object of servers by name`], broken: true }
  }
  for (const [name, raw] of Object.entries(mcpServers)) {
    const validName = McpServerNameSchema.safeParse(name)
    if (!validName.success) {
      file.problems.push(`${path}: server "${name}" left out: its name may hold only letters, digits, ".", "_" and "-"`)
      continue
    }
    const config = McpServerConfigSchema.safeParse(raw)
    if (!config.success) {
      const issue = config.error.issues[0]
      file.problems.push(`${path}: server "${name}" left out: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'invalid'}`)
      continue
    }
    if (!transportOf(config.data)) {
      file.problems.push(`${path}: server "${name}" left out: it needs a "command" (stdio) or a "url" (HTTP)`)
      continue
    }
    file.servers.set(name, config.data)
  }
  return file
}

/** Writes the servers back (atomically: a temp file renamed over the old one), keeping the file's other keys. */
export async function writeMcpConfig(path: string, servers: ReadonlyMap<string, McpServerConfig>, rest: Record<string, unknown> = {}): Promise<void> {
  const text = `${JSON.stringify({ ...rest, mcpServers: Object.fromEntries(servers) }, null, 2)}\n`
  const temp = `${path}.${process.pid}.tmp`
  await writeFile(temp, text, { mode: 0o600 })
  await rename(temp, path)
}
