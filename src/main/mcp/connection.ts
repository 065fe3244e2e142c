import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { errorMessage, type McpServerConfig, type McpServerState } from '../../shared'
import { transportOf, type McpTransportKind } from './config'
import { ServerLog } from './server-log'

/** How long connecting (start, initialize, first tool list) may take. */
const CONNECT_TIMEOUT_MS = 30_000
const DEFAULT_CALL_TIMEOUT_MS = 120_000

/**
 * The MCP SDK loads with the first connection, not with the app: most runs start no MCP server
 * (docs/benchmarks.md, "CLI start-up").
 */
async function loadSdk() {
  const [client, sse, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js')
  ])
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema
  }
}
type McpSdk = Awaited<ReturnType<typeof loadSdk>>

export interface McpConnectionOptions {
  name: string
  config: McpServerConfig
  /** The environment a stdio server starts with (the command allowlist plus its config's `env`). */
  stdioEnv: () => Record<string, string>
  clientVersion: string
  /** Called after the tool list or the state changed. */
  onChange: () => void
}

/** A call's outcome: the server's result, or why there is none (with the tail of the server's log). */
export type McpCallOutcome = { ok: true; result: CallToolResult } | { ok: false; error: string; log: string[] }

/**
 * One configured server (docs/tools.md, "MCP servers"): started on first need, its tools listed
 * and refreshed on `notifications/tools/list_changed`. A server that exits, hangs past its
 * timeout or writes what is not MCP is closed; the call gets an error with the tail of its log,
 * and the next call starts it again.
 */
export class McpConnection {
  readonly log = new ServerLog()
  state: McpServerState = 'stopped'
  error: string | undefined
  tools: Tool[] = []
  serverInfo: { name: string; version: string } | undefined
  starts = 0
  /** How many list_changed notifications arrived (shown in tests and status). */
  listChanges = 0
  private client: Client | null = null
  private connecting: Promise<Client> | null = null
  private readonly pendingCalls = new Set<AbortController>()
  private closedOnPurpose = new WeakSet<Client>()
  /** Bumped by stop(): a connection that completes after it is closed at once, never kept (it would keep the process alive). */
  private epoch = 0

  constructor(private readonly options: McpConnectionOptions) {}

  get name(): string {
    return this.options.name
  }

  get config(): McpServerConfig {
    return this.options.config
  }

  get transport(): McpTransportKind | null {
    return transportOf(this.options.config)
  }

  /** Connects if not connected; the tool list is fresh afterwards. Never throws: a failure is the state `failed`. */
  async start(): Promise<boolean> {
    try {
      await this.connected()
      return true
    } catch {
      return false
    }
  }

  /** `onProgress` gets the server's progress notifications (and each one restarts the call's timeout). */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, onProgress?: (line: string) => void): Promise<McpCallOutcome> {
    let client: Client
    try {
      client = await this.connected()
    } catch (error) {
      return { ok: false, error: `MCP server "${this.name}" could not be started: ${errorMessage(error)}`, log: this.log.tail() }
    }
    const controller = new AbortController()
    const stop = () => controller.abort(signal.reason)
    signal.addEventListener('abort', stop, { once: true })
    this.pendingCalls.add(controller)
    const timeout = (this.options.config.timeout ?? DEFAULT_CALL_TIMEOUT_MS / 1000) * 1000
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: controller.signal,
        timeout,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: timeout * 10,
        // Asking for progress is what sends a progress token; without one no server reports any.
        onprogress: (progress) => {
          const of = progress.total !== undefined ? `/${progress.total}` : ''
          onProgress?.(`progress ${progress.progress}${of}${progress.message ? `: ${progress.message}` : ''}\n`)
        }
      })) as CallToolResult
      return { ok: true, result }
    } catch (error) {
      if (signal.aborted) return { ok: false, error: 'Cancelled by the user.', log: [] }
      const reason = controller.signal.aborted ? errorMessage(controller.signal.reason) : errorMessage(error)
      // Whatever went wrong, this process is not trusted with the next call: it starts afresh.
      this.log.note(`call of ${tool} failed: ${reason}; the server is restarted on the next call`)
      await this.stop('failed', reason)
      return { ok: false, error: `MCP server "${this.name}" failed during ${tool}: ${reason}`, log: this.log.tail() }
    } finally {
      signal.removeEventListener('abort', stop)
      this.pendingCalls.delete(controller)
    }
  }

  /** Closes the connection (and ends a stdio server's process). */
  async stop(state: McpServerState = 'stopped', error?: string): Promise<void> {
    const client = this.client
    this.client = null
    this.connecting = null
    this.epoch++
    this.state = state
    this.error = error
    if (client) {
      this.closedOnPurpose.add(client)
      await client.close().catch(() => {})
    }
    this.options.onChange()
  }

  /** The pid of a running stdio server (tests end it to prove the restart). */
  get pid(): number | null {
    // Only a stdio transport has a process (the SDK's class is not loaded here to test with instanceof).
    const transport = this.client?.transport as Partial<StdioClientTransport> | undefined
    return this.transport === 'stdio' ? (transport?.pid ?? null) : null
  }

  private connected(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client)
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null
    })
    return this.connecting
  }

  private async connect(): Promise<Client> {
    const kind = this.transport
    if (!kind) throw new Error('it needs a "command" or a "url"')
    this.state = 'connecting'
    this.error = undefined
    this.starts++
    this.options.onChange()
    const epoch = this.epoch
    try {
      const sdk = await loadSdk()
      let client: Client
      if (epoch !== this.epoch) throw new Error('stopped while connecting')
      if (kind === 'stdio') client = await this.open(sdk, this.stdioTransport(sdk))
      else if (kind === 'sse') client = await this.open(sdk, this.sseTransport(sdk))
      else {
        try {
          client = await this.open(sdk, new sdk.StreamableHTTPClientTransport(this.url(), { requestInit: { headers: this.options.config.headers ?? {} } }))
        } catch (error) {
          // Servers from before streamable HTTP (2024-11-05) speak SSE on the same address.
          this.log.note(`streamable HTTP failed (${errorMessage(error)}); trying SSE`)
          try {
            client = await this.open(sdk, this.sseTransport(sdk))
          } catch (sseError) {
            // Both failed: the first reason is usually the real one (refused, 401, a wrong path).
            throw new Error(`streamable HTTP: ${errorMessage(error)}; SSE: ${errorMessage(sseError)}`)
          }
        }
      }
      if (epoch !== this.epoch) {
        // stop() came while this was connecting (the app closing): end the server, keep nothing.
        this.closedOnPurpose.add(client)
        await client.close().catch(() => {})
        throw new Error('stopped while connecting')
      }
      this.client = client
      await this.refreshTools(client)
      if (epoch !== this.epoch) throw new Error('stopped while connecting')
      this.state = 'ready'
      this.options.onChange()
      return client
    } catch (error) {
      if (epoch !== this.epoch) throw error
      this.state = 'failed'
      this.error = errorMessage(error)
      this.log.note(`could not connect: ${this.error}`)
      this.options.onChange()
      throw error
    }
  }

  private async open(sdk: McpSdk, transport: Transport): Promise<Client> {
    const client = new sdk.Client({ name: 'deskclaw', version: this.options.clientVersion }, { capabilities: {} })
    client.onerror = (error) => this.transportError(client, error)
    client.onclose = () => this.closed(client)
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      this.listChanges++
      void this.refreshTools(client).catch((error) => this.log.note(`tool list refresh failed: ${errorMessage(error)}`))
    })
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS })
    } catch (error) {
      this.closedOnPurpose.add(client)
      await client.close().catch(() => {})
      throw error
    }
    const version = client.getServerVersion()
    this.serverInfo = version ? { name: version.name, version: version.version } : undefined
    this.log.note(`connected${version ? ` to ${version.name} ${version.version}` : ''}`)
    return client
  }

  private async refreshTools(client: Client): Promise<void> {
    const tools: Tool[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor && tools.length < 1000)
    if (this.client !== client && this.client !== null) return
    this.tools = tools
    this.options.onChange()
  }

  /** Garbage on stdout or a broken stream: a call waiting for an answer gets none, so it fails now. */
  private transportError(client: Client, error: Error): void {
    if (this.closedOnPurpose.has(client)) return
    this.log.note(`transport error: ${errorMessage(error)}`)
    for (const controller of this.pendingCalls) controller.abort(new Error(`the server sent something that is not MCP (${errorMessage(error)})`))
  }

  /** The process exited or the connection dropped without us closing it. */
  private closed(client: Client): void {
    if (this.closedOnPurpose.has(client) || this.client !== client) return
    this.client = null
    this.state = 'failed'
    this.error = 'the server closed the connection (its process exited?)'
    this.log.note(`${this.error}; it is started again on the next call`)
    this.options.onChange()
  }

  private stdioTransport(sdk: McpSdk): StdioClientTransport {
    const { command, args, cwd } = this.options.config
    const transport = new sdk.StdioClientTransport({ command: command!, args: args ?? [], env: this.options.stdioEnv(), ...(cwd ? { cwd } : {}), stderr: 'pipe' })
    transport.stderr?.on('data', (chunk: Buffer) => this.log.write(chunk.toString('utf8')))
    return transport
  }

  private sseTransport(sdk: McpSdk): SSEClientTransport {
    const headers = this.options.config.headers ?? {}
    return new sdk.SSEClientTransport(this.url(), {
      requestInit: { headers },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) }
    })
  }

  private url(): URL {
    try {
      return new URL(this.options.config.url ?? '')
    } catch {
      throw new Error(`"${this.options.config.url}" is not a URL`)
    }
  }
}
