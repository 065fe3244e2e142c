import { AppError, type McpOverview, type McpServerConfig, type McpServerStatus, type RiskRule } from '../../shared'
import { MutableToolSource, namespacedToolName, type ToolRegistry } from '../tools'
import { type FSWatcher, watch } from 'node:fs'
import { basename, dirname } from 'node:path'
import { MCP_CONFIG_FILE, mcpConfigPath, readMcpConfig, transportOf } from './config'
import { changeMcpServer } from './config-write'
import { McpConnection } from './connection'
import { createMcpTool, isTrustedRead } from './mcp-tool'
import { stdioServerEnv, type StdioEnvOptions } from './stdio-env'

export interface McpServiceOptions {
  dataDir: string
  registry: ToolRegistry
  /** Read when a stdio server starts: the allowlist names of the moment. */
  stdioEnv: () => StdioEnvOptions
  clientVersion: string
  /** A server's tools, state or the allowed set changed (the app publishes it and reloads the rules). */
  onChange?: () => void
  /**
   * Whether the servers start with the app (default true: the window, `deskclaw web`). A one-shot
   * CLI command passes false: only one that needs MCP starts them, through ready() (issue 37, item 4).
   */
  startWithApp?: boolean
}

interface ServerEntry {
  connection: McpConnection
  source: MutableToolSource
}

/** Every server's tools are in the namespace `mcp__<server>`. */
export const mcpNamespace = (server: string): string => `mcp__${server}`

/**
 * The MCP servers of `mcp.json` (docs/tools.md, "MCP servers"): one connection and one dynamic
 * tool source per enabled server, started with the app, restarted when a call finds it gone.
 * Settings and the CLI change the file through `save` and `remove`, each against the file on disk
 * (config-write.ts); the file is watched, so an edit by hand is taken up and shown at once.
 */
export class McpService {
  readonly name = 'mcp'
  private readonly servers = new Map<string, ServerEntry>()
  private configs = new Map<string, McpServerConfig>()
  private problems: string[] = []
  private loaded = false
  private watcher: FSWatcher | null = null
  private watchTimer: NodeJS.Timeout | null = null

  constructor(private readonly options: McpServiceOptions) {}

  get file(): string {
    return mcpConfigPath(this.options.dataDir)
  }

  /** The app started: every enabled server starts in the background, unless the app said not to. */
  started(): void {
    if (this.options.startWithApp !== false) this.startInBackground()
  }

  /** Reads the file and starts every enabled server in the background. */
  private startInBackground(): void {
    this.load()
    for (const name of this.servers.keys()) void this.servers.get(name)?.connection.start()
    this.watchFile()
  }

  /** Resolves once every enabled server is connected or has failed (`deskclaw run` waits for this before the first step). */
  async ready(): Promise<void> {
    this.load()
    await Promise.all([...this.servers.values()].map(({ connection }) => connection.start()))
  }

  overview(): McpOverview {
    this.load()
    return { file: this.file, servers: [...this.configs.keys()].map((name) => this.status(name)), problems: [...this.problems] }
  }

  status(name: string): McpServerStatus {
    const config = this.configs.get(name)
    if (!config) throw new AppError('NOT_FOUND', `There is no MCP server "${name}" in ${this.file}.`)
    const entry = this.servers.get(name)
    const connection = entry?.connection
    const allowed = allowedSet(config)
    return {
      name,
      config,
      transport: connection?.transport ?? null,
      state: config.disabled ? 'disabled' : (connection?.state ?? 'stopped'),
      ...(connection?.error ? { error: connection.error } : {}),
      ...(connection?.serverInfo ? { serverInfo: connection.serverInfo } : {}),
      tools: (connection?.tools ?? []).map((tool) => ({
        name: tool.name,
        qualifiedName: namespacedToolName(mcpNamespace(name), tool.name),
        description: tool.description ?? '',
        readOnlyHint: tool.annotations?.readOnlyHint === true,
        read: isTrustedRead(tool, { trustReadOnlyHints: config.trustReadOnlyHints === true }),
        autoApproved: allowed.has('*') || allowed.has(tool.name)
      })),
      starts: connection?.starts ?? 0,
      log: connection?.log.tail(100) ?? []
    }
  }

  /** A server's entry as the file has it now (undefined: not there). */
  configOf(name: string): McpServerConfig | undefined {
    this.load()
    return this.configs.get(name)
  }

  connection(name: string): McpConnection {
    this.load()
    const entry = this.servers.get(name)
    if (!entry) {
      const why = this.configs.get(name)?.disabled ? 'is disabled' : `is not in ${this.file}`
      throw new AppError('NOT_FOUND', `The MCP server "${name}" ${why}.`)
    }
    return entry.connection
  }

  /**
   * The user's "run without asking" for MCP tools as allow rules (docs/risk.md, "MCP tools"): one
   * per listed tool the server's `autoApprove` names (or every tool, for `"*"`).
   */
  allowRules(): RiskRule[] {
    const rules: RiskRule[] = []
    for (const [name, { connection }] of this.servers) {
      const allowed = allowedSet(connection.config)
      for (const tool of connection.tools) {
        if (!allowed.has('*') && !allowed.has(tool.name)) continue
        rules.push({ tool: namespacedToolName(mcpNamespace(name), tool.name), match: ['*'], decision: 'allow', why: `allowed in the settings of the MCP server "${name}"` })
      }
    }
    return rules
  }

  /** Adds or replaces a server in the file (a rename keeps its place) and (re)starts it when enabled. */
  async save(name: string, config: McpServerConfig, previousName?: string): Promise<McpOverview> {
    this.load()
    if (!transportOf(config)) throw new AppError('VALIDATION_FAILED', `The MCP server "${name}" needs a "command" (stdio) or a "url" (HTTP).`)
    await this.sync()
    const renamed = previousName !== undefined && previousName !== name
    if (renamed && this.configs.has(name)) throw new AppError('VALIDATION_FAILED', `There is already an MCP server "${name}".`)
    await changeMcpServer(this.file, name, config, previousName)
    await this.sync(name)
    return this.overview()
  }

  async remove(name: string): Promise<McpOverview> {
    this.load()
    await this.sync()
    if (!this.configs.has(name)) throw new AppError('NOT_FOUND', `There is no MCP server "${name}".`)
    await changeMcpServer(this.file, name, null)
    await this.sync()
    return this.overview()
  }

  /** Reads the file again (after it was edited by hand) and restarts every server. */
  async reload(): Promise<McpOverview> {
    await this.shutdown()
    this.loaded = false
    this.startInBackground()
    this.changed()
    return this.overview()
  }

  async restart(name: string): Promise<McpOverview> {
    const connection = this.connection(name)
    await connection.stop()
    await connection.start()
    return this.overview()
  }

  async shutdown(): Promise<void> {
    this.watcher?.close()
    this.watcher = null
    if (this.watchTimer) clearTimeout(this.watchTimer)
    await Promise.all([...this.servers.keys()].map((name) => this.drop(name)))
  }

  private load(): void {
    if (this.loaded) return
    this.loaded = true
    const file = readMcpConfig(this.file)
    this.configs = file.servers
    this.problems = file.problems
    for (const problem of file.problems) console.warn(`[deskclaw] ${problem}`)
    for (const [name, config] of this.configs) this.attach(name, config)
  }

  /**
   * Takes up the file as it is on disk: servers gone are stopped, new or changed ones (and
   * `restart`) started again. A file broken as a whole keeps the servers running (an editor's
   * half-written save) and only says why. Tells the app when anything changed.
   */
  private async sync(restart?: string): Promise<void> {
    const file = readMcpConfig(this.file)
    let differs = JSON.stringify(file.problems) !== JSON.stringify(this.problems)
    this.problems = file.problems
    if (!file.broken) {
      const before = this.configs
      this.configs = file.servers
      for (const name of before.keys()) {
        if (file.servers.has(name)) continue
        differs = true
        await this.drop(name)
      }
      for (const [name, config] of file.servers) {
        if (name !== restart && JSON.stringify(before.get(name)) === JSON.stringify(config)) continue
        differs = true
        await this.drop(name)
        this.attach(name, config)
        void this.servers.get(name)?.connection.start()
      }
    }
    if (differs) this.changed()
  }

  /** Watches the file's folder (an editor replaces the file rather than writing into it). */
  private watchFile(): void {
    if (this.watcher) return
    try {
      this.watcher = watch(dirname(this.file), (_event, filename) => {
        if (filename !== null && basename(filename.toString()) !== MCP_CONFIG_FILE) return
        if (this.watchTimer) clearTimeout(this.watchTimer)
        this.watchTimer = setTimeout(() => void this.sync().catch((error) => console.error('[deskclaw] MCP file re-read failed:', error)), 150)
      })
      this.watcher.on('error', () => this.watcher?.close())
      this.watcher.unref()
    } catch (error) {
      console.warn(`[deskclaw] ${this.file} is not watched: ${String(error)}`)
    }
  }

  private attach(name: string, config: McpServerConfig): void {
    if (config.disabled) return
    const source = new MutableToolSource(`mcp:${name}`, mcpNamespace(name))
    const policy = { trustReadOnlyHints: config.trustReadOnlyHints === true }
    let listed: unknown = null
    const connection: McpConnection = new McpConnection({
      name,
      config,
      clientVersion: this.options.clientVersion,
      stdioEnv: () => stdioServerEnv(config.env, this.options.stdioEnv()),
      onChange: () => {
        // Rebuild the tools only when the list itself changed, not on every state change.
        if (listed !== connection.tools) {
          listed = connection.tools
          source.set(connection.tools.map((tool) => createMcpTool(connection, tool, policy)))
        }
        this.changed()
      }
    })
    this.servers.set(name, { connection, source })
    this.options.registry.addSource(source)
  }

  private async drop(name: string): Promise<void> {
    const entry = this.servers.get(name)
    if (!entry) return
    this.servers.delete(name)
    this.options.registry.removeSource(entry.source.id)
    await entry.connection.stop()
  }

  private changed(): void {
    try {
      this.options.onChange?.()
    } catch (error) {
      console.error('[deskclaw] MCP change listener failed:', error)
    }
  }
}

function allowedSet(config: McpServerConfig): Set<string> {
  return new Set(config.autoApprove ?? [])
}
