import { join } from 'node:path'
import { homedir } from 'node:os'
import type { AgentEvent, RiskRule, Settings } from '../../shared'
import { ApprovalBroker, ConversationGrants, RiskEngine, fromRules, mergeRuleSets, readRuleFile, type RuleSet } from '../risk'
import { SelectedRuntime, type Runtime, type SelectRuntimeOptions } from '../runtime'
import { DATABASE_FILE_NAME, SqliteConversationStore, type ConversationStore } from '../store'
import { builtinTools, ToolRegistry } from '../tools'
import { AgentService } from './agent-service'
import { EventBus } from './event-bus'
import { apiKeyEnvFor } from '../providers'
import { resolveSettings } from './settings'

export interface AppConfig {
  /** Folder for deskclaw.db. */
  dataDir: string
  /** This process's overrides (CLI flags, environment); not saved. */
  overrides?: Partial<Settings>
  /** An explicit key (e.g. read by the CLI from --api-key-env); else read from settings.apiKeyEnv. */
  apiKey?: string
  env?: NodeJS.ProcessEnv
  /** A fixed runtime (tests); otherwise the one settings.runtime asks for, chosen by probing. */
  runtime?: Runtime
  /** better-sqlite3 addon built for another ABI (Electron). */
  nativeBinding?: string
  /** The home folder the path guardian protects (default: the user's). */
  home?: string
  /** How runtimes are probed (a bwrap path, a docker host); settings decide the rest. */
  runtimeProbe?: Pick<SelectRuntimeOptions, 'bwrapPath' | 'sandboxExecPath' | 'platform'> & { dockerHost?: string }
}

/** Where rules live: the user's file beside the database, and the project's in its workspace. */
export const USER_RULES_FILE = 'rules.json'
export const PROJECT_RULES_FILE = '.deskclaw/rules.json'

/** The composition root: every main-process service, built from one config (DESIGN §1). */
export class DeskclawApp {
  readonly store: ConversationStore
  readonly events = new EventBus()
  readonly approvals: ApprovalBroker
  readonly registry = new ToolRegistry(builtinTools)
  readonly agent: AgentService
  /** The risk engine; a promise because tree-sitter's WASM loads asynchronously, once. */
  readonly risk: Promise<RiskEngine>
  readonly grants = new ConversationGrants()
  /** Where shell commands run. */
  readonly runtime: Runtime
  private readonly selectedRuntime: SelectedRuntime | null
  private settingsCache: Settings
  /** Sequence of published agent events; reads of the store and emits are both synchronous, so it partitions them. */
  private eventSeq = 0
  private readonly overrides: Partial<Settings>

  private constructor(private readonly config: AppConfig) {
    this.overrides = { ...config.overrides }
    this.store = SqliteConversationStore.open(join(config.dataDir, DATABASE_FILE_NAME), {
      nativeBinding: config.nativeBinding
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
    this.approvals = new ApprovalBroker({ timeoutMs: this.settingsCache.approvalTimeoutMs, emit })
    this.risk = RiskEngine.create({ home: config.home ?? homedir(), rules: this.loadRules() })
    // Nobody awaits the engine until the first tool call; a failure there is reported per call.
    this.risk.catch(() => {})
    this.selectedRuntime = config.runtime ? null : new SelectedRuntime(this.settingsCache.runtime, this.runtimeOptions())
    this.runtime = config.runtime ?? this.selectedRuntime!
    // Probe now: a docker runtime reaps containers orphaned by a crash as it starts (DESIGN §5).
    void this.runtime.ready?.()
    this.agent = new AgentService({
      store: this.store,
      registry: this.registry,
      approvals: this.approvals,
      risk: this.risk,
      grants: this.grants,
      saveAlwaysRule: (rule, approvalId) => this.saveAlwaysRule(rule, approvalId),
      runtime: this.runtime,
      unsandboxed: () => this.selectedRuntime?.fellBackToNative ?? false,
      settings: () => this.settingsCache,
      apiKey: (settings) => this.apiKeyFor(settings),
      emit
    })
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

  updateSettings(patch: Partial<Settings>): Settings {
    // What the user sets now wins over this process's start-up overrides from then on.
    for (const key of Object.keys(patch) as Array<keyof Settings>) delete this.overrides[key]
    const next = resolveSettings({ ...this.store.getSettings(), ...patch }, this.overrides)
    this.store.saveSettings(patch)
    this.settingsCache = next
    this.approvals.setTimeout(next.approvalTimeoutMs)
    if (patch.workspace !== undefined) void this.reloadRules().catch(() => {})
    if (patch.runtime !== undefined || patch.dockerImage !== undefined || patch.allowedEnv !== undefined) {
      void this.selectedRuntime?.reconfigure(next.runtime, this.runtimeOptions()).then(() => this.runtime.ready?.())
    }
    this.events.publish({ kind: 'settings_changed', settings: next })
    return next
  }

  /**
   * User rules, the project's rules (which may only tighten) and the rules saved by "always".
   * Read on every settings change too, since the workspace decides which project file applies.
   */
  loadRules(): RuleSet {
    return mergeRuleSets(
      readRuleFile(join(this.config.dataDir, USER_RULES_FILE), 'user'),
      readRuleFile(join(this.settingsCache.workspace, PROJECT_RULES_FILE), 'project'),
      fromRules(this.store.listApprovalRules(), 'saved', 'saved approvals')
    )
  }

  async reloadRules(): Promise<RuleSet> {
    const engine = await this.risk
    const rules = this.loadRules()
    engine.setRules(rules)
    return rules
  }

  /** Deletes a conversation and everything it holds: its sandbox container and its grants too. */
  async deleteConversation(id: string): Promise<boolean> {
    const deleted = this.store.deleteConversation(id)
    this.grants.forget(id)
    await this.runtime.closeConversation?.(id).catch((error: unknown) => {
      console.warn(`[deskclaw] could not remove the sandbox of conversation ${id}: ${String(error)}`)
    })
    return deleted
  }

  private runtimeOptions(): SelectRuntimeOptions {
    const { dockerHost, ...probe } = this.config.runtimeProbe ?? {}
    return {
      ...probe,
      docker: { image: this.settingsCache.dockerImage, ...(dockerHost ? { dockerHost } : {}) },
      allowEnv: this.settingsCache.allowedEnv
    }
  }

  private saveAlwaysRule(rule: RiskRule, approvalId: string): void {
    this.store.saveApprovalRule(rule, approvalId)
    void this.reloadRules().catch(() => {})
  }

  /** Persist first, then fan out: what a front door shows is already on disk. */
  private emit(event: AgentEvent): void {
    this.store.recordEvent(event)
    this.events.publish({ kind: 'agent', event, seq: ++this.eventSeq })
    if (event.type === 'run_started' || event.type === 'run_completed' || event.type === 'run_failed') {
      this.events.publish({ kind: 'conversations_changed' })
    }
  }

  private apiKeyFor(settings: Settings): string | undefined {
    if (this.config.apiKey) return this.config.apiKey
    const env = this.config.env ?? process.env
    return env[apiKeyEnvFor(settings)]
  }

  async close(): Promise<void> {
    this.approvals.denyAll('DeskClaw is closing.')
    await this.agent.cancelAll()
    await this.runtime.close?.().catch(() => {})
    this.store.close()
  }
}
