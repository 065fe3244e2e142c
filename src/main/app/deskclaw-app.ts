import { join } from 'node:path'
import { homedir } from 'node:os'
import { activeSavedProvider, ProviderKindSchema, type AgentEvent, type ChatAppInfo, type DesktopControl, type Settings } from '../../shared'
import { ApprovalBroker, ConversationGrants } from '../approvals'
import { ChatSender, LearnSessions, profileFor, storeSendLog, type ProfileProblem } from '../chat-apps'
import { DesktopService, TesseractOcr, type DesktopClipboard, type DriverLauncher } from '../desktop'
import { accessibilityBackend } from '../desktop/accessibility'
import { apiKeyEnvFor, LOCAL_SERVERS, type LocalServerProbe } from '../providers'
import { RiskEngine, UrlGuardian, type RuleSet } from '../risk'
import { SelectedRuntime, type ModelKeys, type Runtime, type SelectRuntimeOptions } from '../runtime'
import { DATABASE_FILE_NAME, SqliteConversationStore, type ConversationStore } from '../store'
import { DeviceService, type DeviceBackends, type PortOpener } from '../devices'
import { BrowserService } from '../browser'
import { CheckpointService, StagedRuns, UndoService } from '../checkpoints'
import { ApiKeys, unavailableSecretStore, type SecretStore } from '../secrets'
import { createBrowserTools, createDesktopTools, createFileTools, createHardwareTools, createMessagingTools, createShellTools, createWebTools, ToolRegistry, type ToolSource } from '../tools'
import { McpService } from '../mcp'
import { Notifications, type NativeNotifier } from '../notifications'
import { createAgentTools, createCheckTools, createCodeTools, createGitTools, createMemoryTools, createNotifyTools, createScheduleTools, createSearchTools } from '../tools'
import type { MemoryStore } from '../store'
import { memoryOffer } from './memory-offer'
import { AgentService } from './agent-service'
import { EventBus } from './event-bus'
import { RulesService } from './rules-service'
import { Scheduler } from './scheduler'
import { systemClock, type Clock } from './clock'
import { removedSavedProviders, withSavedProviders } from './saved-providers'
import { nextRunTimes } from './schedule-times'
import { approvalsService, codeSandboxService, grantsService, runtimeService, ServiceSet, storeService } from './services'
import type { SettingConfirmer } from './risky-settings'
import { resolveSettings } from './settings'
import { APP_VERSION } from './version'
import { webAccess } from './web-access'

export interface AppConfig {
  /** Folder for deskclaw.db. */
  dataDir: string
  /** This process's overrides (CLI flags, environment); not saved. */
  overrides?: Partial<Settings>
  /** An explicit key (e.g. read by the CLI from --api-key-env); wins over a stored key and settings.apiKeyEnv. */
  apiKey?: string
  /**
   * Where pasted API keys are kept, encrypted: the Electron shell passes one over safeStorage, tests
   * a fake. Without one (the CLI, `deskclaw web` under plain Node) keys come from environment variables only.
   */
  secrets?: SecretStore
  env?: NodeJS.ProcessEnv
  /** A fixed runtime (tests); otherwise the one settings.runtime asks for, chosen by probing. */
  runtime?: Runtime
  /** better-sqlite3 addon built for another ABI (Electron). */
  nativeBinding?: string
  /** The home folder the path guardian protects (default: the user's). */
  home?: string
  /** How runtimes are probed (a bwrap path, a docker host); settings decide the rest. */
  runtimeProbe?: Pick<SelectRuntimeOptions, 'bwrapPath' | 'sandboxExecPath' | 'platform'> & { dockerHost?: string }
  /** Tool sources beside the built-in packs (MCP servers; tests add their own tools this way). */
  toolSources?: ToolSource[]
  /** The desktop driver's surroundings: Electron passes its clipboard and a utilityProcess launcher (docs/desktop.md). */
  desktop?: DesktopHost
  /**
   * Asks the person at the machine before a front end switches to autonomy "full" or the "native"
   * runtime (a native dialog in the app, the terminal for `deskclaw web`); without one, such a switch is refused.
   */
  confirmSetting?: SettingConfirmer
  /** Device backends and the serial port opener (tests pass fakes fed with recorded descriptors). */
  devices?: { backends?: Partial<DeviceBackends>; openPort?: PortOpener; pollMs?: number }
  /** Where the first-run setup looks for local model servers (tests point it at their own). */
  localServers?: readonly LocalServerProbe[]
  /** Shows notices the system's way (the Electron shell's native notifications; docs/tools.md, "Notifications"). */
  notifier?: NativeNotifier
  /** The scheduler's clock (tests pass one they move; docs/tools.md, "Schedules"). */
  clock?: Clock
  /**
   * Whether this process runs scheduled tasks at their times: the desktop app and `deskclaw web` do;
   * one-shot CLI commands only manage them (and `schedule run-now` runs one).
   */
  runSchedules?: boolean
  /**
   * Whether the MCP servers of mcp.json start with the app (default true: the desktop app, `deskclaw
   * web`). One-shot CLI commands pass false: those that need MCP wait for `mcp.ready()`, the others
   * never start a server, which would keep the process alive after its answer (docs/cli.md).
   */
  startMcpServers?: boolean
}

export interface DesktopHost {
  clipboard?: () => DesktopClipboard
  launcher?: DriverLauncher
  /** Whether a global stop shortcut is registered now (the Electron shell sets it). */
  shortcutActive?: () => boolean
}

/**
 * The composition root (docs/architecture.md): every main-process service, built from one config
 * and registered once in `services`, which carries them through start, settings changes, deleted
 * conversations and shutdown.
 */
export class DeskclawApp {
  readonly store: ConversationStore
  readonly events = new EventBus()
  readonly approvals: ApprovalBroker
  readonly registry: ToolRegistry
  readonly agent: AgentService
  /** Builds the risk engine with the rules as they are then (set in the constructor). */
  private readonly createRisk: () => Promise<RiskEngine>
  private riskLoading: Promise<RiskEngine> | undefined
  readonly grants = new ConversationGrants()
  /** Where shell commands run. */
  readonly runtime: Runtime
  /** Screenshots, keyboard and mouse, through the driver process. */
  readonly desktop: DesktopService
  /** The send-text task into desktop chat apps (docs/desktop.md, "Sending messages"). */
  readonly chatSender: ChatSender
  /** Settings → Chat apps → Add an app: the wizard's sessions (docs/desktop.md, "Teach DeskClaw a new app"). */
  readonly learn: LearnSessions
  /** USB, HID and serial devices, and serial sessions. */
  readonly devices: DeviceService
  /** The user's browser, one context per conversation (docs/tools.md, "Browser"). */
  readonly browser: BrowserService
  /** The workspace recorded around every call that can change it: diffs and undo (docs/checkpoints.md). */
  readonly checkpoints: CheckpointService
  /** Undo and redo of what runs changed in the workspace, previewed first (docs/checkpoints.md). */
  readonly undo: UndoService
  /** Apply-at-end runs: a copy of the workspace, reviewed before anything reaches the real one (docs/checkpoints.md). */
  readonly staged: StagedRuns
  /** MCP servers from mcp.json in the data folder: a dynamic tool source each (docs/tools.md, "MCP servers"). */
  readonly mcp: McpService
  /** API keys pasted in Settings, encrypted (main only: the bridge learns whether one is stored, never the key). */
  readonly apiKeys: ApiKeys
  /** Notices for the person at this machine: the notify tool's, and scheduled runs' (docs/tools.md, "Notifications"). */
  readonly notifications: Notifications
  /** What the agent remembers across conversations (docs/tools.md, "Memory"). */
  readonly memories: MemoryStore
  /** Scheduled tasks, run while the app runs (docs/tools.md, "Schedules"). */
  readonly schedules: Scheduler
  private readonly services = new ServiceSet()
  private readonly rules: RulesService
  private readonly selectedRuntime: SelectedRuntime | null
  private settingsCache: Settings
  /**
   * Sequence of published agent events. A read of the store commits (and so publishes) what is queued
   * first, and both are synchronous, so a snapshot read before this seq holds exactly the events up to it.
   */
  private eventSeq = 0
  private readonly overrides: Partial<Settings>

  private constructor(private readonly config: AppConfig) {
    this.overrides = { ...config.overrides }
    this.apiKeys = new ApiKeys(config.secrets ?? unavailableSecretStore(), () => this.settingsCache.savedProviders.map((saved) => saved.id))
    this.store = SqliteConversationStore.open(join(config.dataDir, DATABASE_FILE_NAME), {
      nativeBinding: config.nativeBinding,
      batchTickMs: storeTickFrom(config.env ?? process.env)
    })
    const recovered = this.store.recoverInterrupted()
    if (recovered.runs + recovered.toolCalls + recovered.approvals > 0) {
      console.warn(
        `[deskclaw] the last session ended mid-run: ${recovered.runs} run(s) and ${recovered.toolCalls} tool call(s) ` +
          `marked interrupted, ${recovered.approvals} unanswered approval(s) denied`
      )
    }
    this.settingsCache = resolveSettings(this.store.getSettings(), this.overrides)
    const emit = (event: AgentEvent): void => this.emit(event)
    const { services, store } = this

    store.onCommitted((event) => this.publishCommitted(event))
    services.register(storeService(store))
    this.selectedRuntime = config.runtime ? null : new SelectedRuntime(this.settingsCache.runtime, this.runtimeOptions())
    this.runtime = config.runtime ?? this.selectedRuntime!
    services.register(runtimeService(this.runtime, this.selectedRuntime, () => this.runtimeOptions(), this.events))
    services.register(grantsService(this.grants))
    const codeSandboxOptions = (): SelectRuntimeOptions => ({ ...this.runtimeOptions(), failClosed: true })
    const codeSandbox = new SelectedRuntime('auto', codeSandboxOptions())
    services.register(codeSandboxService(codeSandbox, codeSandboxOptions))

    const desktop = (this.desktop = services.register(
      new DesktopService({
        launcher: config.desktop?.launcher,
        clipboard: config.desktop?.clipboard,
        env: config.env,
        settings: () => this.settingsCache,
        cancelRun: (runId) => this.agent.cancel(runId)
      })
    ))
    this.events.subscribe((event) => {
      if (event.kind === 'agent' && (event.event.type === 'run_completed' || event.event.type === 'run_failed')) desktop.runEnded(event.event.runId)
    })
    desktop.onControlChange(() => this.events.publish({ kind: 'desktop_control', control: this.desktopControl() }))

    // OCR starts on the first send that reads the screen, and stops with the app.
    let ocr: TesseractOcr | null = null
    services.register({ name: 'ocr', shutdown: () => ocr?.close() })
    this.chatSender = new ChatSender({
      desktop,
      ocr: () => (ocr ??= new TesseractOcr()),
      log: storeSendLog(store),
      settings: () => this.settingsCache,
      dataDir: config.dataDir
    })
    // The wizard reads the app's tree on the app's own session bus (the env the desktop driver gets).
    const learnAccessibility = accessibilityBackend(process.platform, { env: config.env })
    services.register({ name: 'learn', shutdown: () => learnAccessibility.close() })
    this.learn = new LearnSessions(() => ({ desktop, accessibility: learnAccessibility, ocr: () => (ocr ??= new TesseractOcr()), dataDir: config.dataDir }))

    const devices = (this.devices = services.register(new DeviceService({ settings: () => this.settingsCache, ...config.devices })))
    devices.sessions.onData((session, data) => {
      if (session.owner.kind === 'console') this.events.publish({ kind: 'serial_data', sessionId: session.id, text: data.toString('utf8') })
    })
    devices.sessions.onClosed((session, how) =>
      this.events.publish({ kind: 'serial_closed', sessionId: session.id, path: session.path, disconnected: how.disconnected, ...(how.reason ? { reason: how.reason } : {}) })
    )

    this.checkpoints = new CheckpointService(config.dataDir, () => ({ maxFileBytes: this.settingsCache.checkpoints.maxFileMB * 1024 * 1024 }))
    this.undo = services.register(
      new UndoService({
        store,
        checkpoints: this.checkpoints,
        workspaceOf: (id) => store.getConversation(id)?.conversation.workspace ?? this.settingsCache.workspace,
        pruning: {
          dataFolder: config.dataDir,
          limits: () => ({ maxAgeMs: this.settingsCache.checkpoints.keepDays * 86_400_000, maxBytes: this.settingsCache.checkpoints.maxTotalMB * 1024 * 1024 })
        }
      })
    )
    this.staged = new StagedRuns({
      dataFolder: config.dataDir,
      store,
      checkpoints: this.checkpoints,
      runtime: this.runtime,
      workspaceOf: (id) => store.getConversation(id)?.conversation.workspace ?? this.settingsCache.workspace
    })

    // Judges URL subjects with the domain rules in Settings; the web tools check each hop with it too.
    const urls = new UrlGuardian({ domainRules: () => this.settingsCache.webDomains })
    const browser = (this.browser = new BrowserService({
      dataDir: config.dataDir,
      browserPath: () => this.settingsCache.browserPath,
      // Every page the browser goes to meets the domain rules, not only browser_open's URL (docs/risk.md, "Browser").
      judgeNavigation: async (url) => {
        await urls.resolve(url)
        const { findings } = urls.judge(url, null)
        const strictest = findings.find((f) => f.verdict === 'deny') ?? findings.find((f) => f.verdict === 'ask')
        return strictest ? { verdict: strictest.verdict === 'deny' ? 'deny' : 'ask', reason: strictest.message } : { verdict: 'allow', reason: '' }
      }
    }))
    services.register({ name: 'browser', conversationClosed: async (id) => void (await browser.close(id, { forget: true })), shutdown: () => browser.shutdown() })
    const memories = (this.memories = store.memories())
    memories.onChange(() => this.events.publish({ kind: 'memories_changed' }))
    const notifications = (this.notifications = new Notifications({ publish: (notice) => this.events.publish({ kind: 'notification', notice }), native: config.notifier }))
    this.registry = new ToolRegistry([
      createFileTools(),
      createSearchTools(),
      createShellTools({ runtime: this.runtime }),
      createGitTools({ runtime: this.runtime }),
      createCheckTools({ runtime: this.runtime, projectChecks: () => this.settingsCache.projectChecks }),
      createCodeTools({ runtime: this.runtime, sandbox: codeSandbox, strictness: () => this.settingsCache.codeStrictness }),
      createDesktopTools({ desktop, settings: () => this.settingsCache }),
      createHardwareTools({ devices }),
      createMessagingTools({ sender: this.chatSender }),
      createBrowserTools({ browser }),
      createWebTools(webAccess(urls, () => this.risk, () => this.settingsCache)),
      createMemoryTools({ memories }),
      createNotifyTools({ notifications }),
      // The scheduler is built after the registry; the tool reaches it only when a call runs.
      createScheduleTools({ schedules: { add: (input) => this.schedules.add(input), nextRunTimes } }),
      // Sub-agents run in the agent room; the pack gets only this service (docs/tools.md, "Sub-agents").
      createAgentTools({ startChildRun: (request) => this.agent.runChild(request) }),
      ...(config.toolSources ?? [])
    ])
    services.register({ name: 'tools', shutdown: this.registry.onChange(() => this.events.publish({ kind: 'tools_changed' })) })

    const mcp = (this.mcp = services.register(
      new McpService({
        dataDir: config.dataDir,
        registry: this.registry,
        clientVersion: APP_VERSION,
        startWithApp: config.startMcpServers ?? true,
        stdioEnv: () => ({ allowEnv: this.settingsCache.allowedEnv, modelKeys: () => this.modelKeys(), appEnv: config.env }),
        onChange: () => {
          this.events.publish({ kind: 'mcp_changed' })
          void this.rules.reload().catch(() => {})
        }
      })
    ))
    const rules = (this.rules = services.register(
      new RulesService({ dataDir: config.dataDir, store, workspace: () => this.settingsCache.workspace, engine: () => this.riskLoading, extraRules: () => mcp.allowRules() })
    ))
    const registry = this.registry
    this.createRisk = () => RiskEngine.create({ home: config.home ?? homedir(), rules: rules.load(), subjectKindOf: (tool) => registry.subjectKindOf(tool), urls })

    this.approvals = new ApprovalBroker({ timeoutMs: this.settingsCache.approvalTimeoutMs, emit })
    this.agent = services.register(
      new AgentService({
        store,
        registry,
        approvals: this.approvals,
        risk: () => this.risk,
        grants: this.grants,
        saveAlwaysRule: (rule, approvalId) => rules.saveAlways(rule, approvalId),
        checkpoints: (workspace) => (this.settingsCache.checkpoints.enabled ? this.checkpoints.forWorkspace(workspace) : undefined),
        unsandboxed: () => this.selectedRuntime?.fellBackToNative ?? false,
        commandShell: () => this.runtime.shell ?? 'sh',
        settings: () => this.settingsCache,
        apiKey: (settings) => this.apiKeyFor(settings),
        memoryBlock: (prompt, workspace) => memoryOffer(memories, prompt, workspace, this.settingsCache.memoryContextChars),
        emit
      })
    )
    services.register(approvalsService(this.approvals))
    const agent = this.agent
    this.schedules = services.register(
      new Scheduler({
        schedules: store.schedules(),
        store,
        clock: config.clock ?? systemClock,
        notifications,
        send: (conversationId, prompt, options) => agent.send(conversationId, prompt, options),
        wait: (runId) => agent.wait(runId),
        cancel: (runId) => void agent.cancel(runId),
        onAgentEvent: (listener) => this.events.subscribe((event) => event.kind === 'agent' && listener(event.event)),
        attachFrontDoor: () => this.approvals.attachFrontDoor('schedules'),
        missedRuns: () => this.settingsCache.scheduleMissedRuns,
        language: () => this.settingsCache.language,
        timed: config.runSchedules ?? false
      })
    )
    services.startAll()
  }

  static create(config: AppConfig): DeskclawApp {
    return new DeskclawApp(config)
  }

  /** The seq of the last agent event already in the store. */
  lastEventSeq(): number {
    return this.eventSeq
  }

  settings(): Settings {
    return this.settingsCache
  }

  localServerProbes(): readonly LocalServerProbe[] {
    return this.config.localServers ?? LOCAL_SERVERS
  }

  /**
   * The risk engine, loaded on first use — a run, a web tool, Settings — and then kept: tree-sitter's
   * WASM is a large part of an idle host's memory (docs/benchmarks.md, "`deskclaw web` memory").
   * A promise because the WASM loads asynchronously; a failure is reported per call that awaits it.
   */
  get risk(): Promise<RiskEngine> {
    if (!this.riskLoading) {
      this.riskLoading = this.createRisk()
      this.riskLoading.catch(() => {})
    }
    return this.riskLoading
  }

  /** Who confirms a switch to a risky setting; undefined when nobody can be asked. */
  settingConfirmer(): SettingConfirmer | undefined {
    return this.config.confirmSetting
  }

  /** Folders recently worked in, most recent first: the settings' workspace, then conversations' own (at most 8). */
  recentWorkspaces(): string[] {
    return [...new Set([this.settingsCache.workspace, ...this.store.recentWorkspaces(8)])].slice(0, 8)
  }

  /**
   * Publishes plug and unplug as devices_changed while the returned function has not been called
   * (the desktop app for its lifetime, the web host per connected page); polling runs only then.
   */
  watchDevices(): () => void {
    return this.devices.onChange((change) => this.events.publish({ kind: 'devices_changed', ...change }))
  }

  /** Who controls the keyboard and mouse, and how to stop it (the banner). */
  desktopControl(): DesktopControl {
    return {
      holder: this.desktop.controlling(),
      stopShortcut: this.settingsCache.desktopStopShortcut,
      shortcutActive: this.config.desktop?.shortcutActive?.() ?? false
    }
  }

  /** The chat app profiles with the user's settings for each (Settings → Chat apps, `deskclaw desktop apps`). */
  chatApps(): { apps: ChatAppInfo[]; problems: ProfileProblem[] } {
    const catalog = this.chatSender.catalog()
    const configured = this.settingsCache.chatApps
    return {
      apps: catalog.profiles.map(({ profile, source }) => ({
        id: profile.id,
        name: profile.name,
        ...(profile.testedWith ? { testedWith: profile.testedWith } : {}),
        supported: profileFor(profile) !== null,
        source,
        enabled: configured[profile.id]?.enabled ?? false,
        allowlist: configured[profile.id]?.allowlist ?? []
      })),
      problems: catalog.problems
    }
  }

  updateSettings(asked: Partial<Settings>): Settings {
    const patch = withSavedProviders(this.settingsCache, asked)
    // What the user sets now wins over this process's start-up overrides from then on.
    for (const key of Object.keys(patch) as Array<keyof Settings>) delete this.overrides[key]
    const next = resolveSettings({ ...this.store.getSettings(), ...patch }, this.overrides)
    this.store.saveSettings(patch)
    // A deleted saved provider's key goes with it.
    for (const id of removedSavedProviders(this.settingsCache, next)) {
      try {
        this.apiKeys.delete({ provider: next.provider, savedProviderId: id })
      } catch {
        // No keyring or an unreadable file: nothing was stored that could be read.
      }
    }
    this.settingsCache = next
    void this.services.settingsChanged(next, patch)
    this.events.publish({ kind: 'settings_changed', settings: next })
    if (patch.desktopStopShortcut !== undefined) this.events.publish({ kind: 'desktop_control', control: this.desktopControl() })
    return next
  }

  /** Reads the rules files and saved rules again and applies them. */
  reloadRules(): Promise<RuleSet> {
    return this.rules.reload()
  }

  /** Deletes a conversation and everything it holds: every service drops its part (a sandbox container, grants). */
  async deleteConversation(id: string): Promise<boolean> {
    // Read before the events that name them are gone (docs/checkpoints.md, "Pruning").
    const checkpoints = this.settingsCache.checkpoints.keepAfterDelete ? new Map<string, string[]>() : this.undo.checkpointsOf(id)
    const deleted = this.store.deleteConversation(id)
    await this.services.conversationClosed(id)
    if (deleted) await this.undo.forget(checkpoints)
    return deleted
  }

  private runtimeOptions(): SelectRuntimeOptions {
    const { dockerHost, ...probe } = this.config.runtimeProbe ?? {}
    return {
      ...probe,
      docker: { image: this.settingsCache.dockerImage, ...(dockerHost ? { dockerHost } : {}) },
      allowEnv: this.settingsCache.allowedEnv,
      modelKeys: () => this.modelKeys()
    }
  }

  /**
   * What never reaches a command (docs/runtimes.md, "The environment allowlist"): the variable the
   * model's key is read from, and every key this app holds, under whatever name it turns up.
   */
  private modelKeys(): ModelKeys {
    const name = apiKeyEnvFor(this.settingsCache)
    const env = this.config.env ?? process.env
    const owners = [
      ...ProviderKindSchema.options.map((provider) => ({ provider })),
      ...this.settingsCache.savedProviders.map((saved) => ({ provider: saved.provider, savedProviderId: saved.id }))
    ]
    const stored = owners.map((owner) => {
      try {
        return this.apiKeys.stored(owner)
      } catch {
        return undefined // unreadable: nothing to compare against
      }
    })
    return { names: [name], values: [this.config.apiKey, env[name], process.env[name], ...stored] }
  }

  /** Persist first: the event is fanned out once its batch committed (publishCommitted). */
  private emit(event: AgentEvent): void {
    this.store.recordEvent(event)
  }

  /** What a front door shows is already on disk: the store tells of an event after its transaction committed. */
  private publishCommitted(event: AgentEvent): void {
    this.events.publish({ kind: 'agent', event, seq: ++this.eventSeq })
    if (event.type === 'run_started' || event.type === 'run_completed' || event.type === 'run_failed') {
      this.events.publish({ kind: 'conversations_changed' })
    }
  }

  /**
   * The key for a model call: an explicit one (CLI) first, then the one pasted in Settings for the
   * active saved provider (only its own) or, with none active, for the provider kind, then the
   * environment variable (settings.apiKeyEnv, else the conventional one). A key that is stored but
   * cannot be decrypted is an error that says so, not a silent fallback.
   */
  apiKeyFor(settings: Settings): string | undefined {
    if (this.config.apiKey) return this.config.apiKey
    const active = activeSavedProvider(settings)
    const stored = this.apiKeys.stored(active ? { provider: settings.provider, savedProviderId: active.id } : settings.provider)
    if (stored) return stored
    const env = this.config.env ?? process.env
    return env[apiKeyEnvFor(settings)]
  }

  async close(): Promise<void> {
    await this.services.shutdown()
  }
}

/** DESKCLAW_STORE_TICK_MS: the group commit's tick (docs/architecture.md, "Store"); for tests and measurements. */
function storeTickFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.DESKCLAW_STORE_TICK_MS
  if (!raw) return undefined
  const ms = Number(raw)
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined
}
