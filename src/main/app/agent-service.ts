import { mkdirSync } from 'node:fs'
import type { ModelMessage } from 'ai'
import { AppError, newId, type AgentEvent, type RiskRule, type Settings } from '../../shared'
import { buildSystemPrompt, runAgent, ToolCallRunner, type AgentRunOutcome } from '../agent'
import { apiKeyEnvFor, createLanguageModel, describeModelError, MODEL_MAX_RETRIES, modelAcceptsImages, type ProviderConfig } from '../providers'
import type { ApprovalBroker, ConversationGrants, RiskEngine } from '../risk'
import type { ConversationStore } from '../store'
import { DEFAULT_OUTPUT_LIMITS, type ToolRegistry } from '../tools'
import type { AppService } from './services'

export interface AgentServiceDeps {
  store: ConversationStore
  registry: ToolRegistry
  approvals: ApprovalBroker
  risk: Promise<RiskEngine>
  grants: ConversationGrants
  saveAlwaysRule(rule: RiskRule, approvalId: string): void
  /** True when commands run natively only because no sandbox was available (stricter policy). */
  unsandboxed?(): boolean
  commandShell?(): 'sh' | 'cmd'
  settings(): Settings
  apiKey(settings: Settings): string | undefined
  emit(event: AgentEvent): void
}

interface ActiveRun {
  conversationId: string
  controller: AbortController
  done: Promise<AgentRunOutcome>
}

/** Starts, tracks and cancels runs; one run at a time per conversation. Cancels them all at shutdown. */
export class AgentService implements AppService {
  readonly name = 'agent'
  private readonly active = new Map<string, ActiveRun>()

  constructor(private readonly deps: AgentServiceDeps) {}

  /** Starts a run and returns at once; progress arrives as events. */
  send(conversationId: string, text: string): { runId: string } {
    const { store } = this.deps
    const conversation = store.getConversation(conversationId)
    if (!conversation) {
      throw new AppError('NOT_FOUND', `Conversation ${conversationId} does not exist.`)
    }
    for (const run of this.active.values()) {
      if (run.conversationId === conversationId) {
        throw new AppError('BUSY', 'This conversation is already working on a request. Stop it or wait.')
      }
    }
    const settings = this.deps.settings()
    // A conversation given its own model (the chat header's picker) keeps it; else the one in Settings.
    const modelId = conversation.conversation.model ?? settings.model
    const providerConfig = this.providerConfig(settings, modelId)
    const model = createLanguageModel(providerConfig) // throws NOT_CONFIGURED with what to set
    // A conversation started in another folder (the palette's workspace picker) keeps working there.
    const workspace = conversation.conversation.workspace ?? settings.workspace
    mkdirSync(workspace, { recursive: true })

    const runId = newId('run')
    const history = store.loadModelMessages(conversationId) as ModelMessage[]
    store.addUserMessage(conversationId, runId, text)
    const controller = new AbortController()
    const runner = new ToolCallRunner({
      registry: this.deps.registry,
      approvals: this.deps.approvals,
      risk: this.deps.risk,
      grants: this.deps.grants,
      saveAlwaysRule: this.deps.saveAlwaysRule,
      autonomy: settings.autonomy,
      workspace,
      unsandboxed: () => this.deps.unsandboxed?.() ?? false,
      commandShell: () => this.deps.commandShell?.() ?? 'sh',
      outputLimits: DEFAULT_OUTPUT_LIMITS,
      saveAttachment: (attachment) => store.saveAttachment(attachment),
      emit: this.deps.emit
    })
    const done = runAgent(
      {
        model,
        modelLabel: `${settings.provider}:${modelId}`,
        registry: this.deps.registry,
        runner,
        systemPrompt: buildSystemPrompt(workspace),
        maxIterations: settings.maxIterations,
        maxRetries: MODEL_MAX_RETRIES,
        acceptsImages: modelAcceptsImages({ ...settings, model: modelId }),
        emit: this.deps.emit,
        onModelMessages: (messages) => store.appendModelMessages(conversationId, runId, messages),
        describeError: (error) => describeModelError(error, providerConfig)
      },
      { runId, conversationId, prompt: text, history, signal: controller.signal }
    ).finally(() => this.active.delete(runId))
    this.active.set(runId, { conversationId, controller, done })
    return { runId }
  }

  /**
   * What a model call with these settings needs, the key read the way runs read it (also used by
   * providers.listModels / testConnection, so they try exactly what a run would).
   */
  providerConfig(settings: Settings, model: string = settings.model): ProviderConfig {
    return {
      provider: settings.provider,
      model,
      baseUrl: settings.baseUrl,
      apiKey: this.deps.apiKey(settings),
      apiKeyEnv: apiKeyEnvFor(settings)
    }
  }

  cancel(runId: string): boolean {
    const run = this.active.get(runId)
    if (!run) return false
    run.controller.abort()
    return true
  }

  /** Resolves when the run ends (the CLI waits on this). */
  wait(runId: string): Promise<AgentRunOutcome> {
    const run = this.active.get(runId)
    if (!run) throw new AppError('NOT_FOUND', `Run ${runId} is not running.`)
    return run.done
  }

  async cancelAll(): Promise<void> {
    const runs = [...this.active.values()]
    for (const run of runs) run.controller.abort()
    await Promise.allSettled(runs.map((run) => run.done))
  }

  shutdown(): Promise<void> {
    return this.cancelAll()
  }
}
