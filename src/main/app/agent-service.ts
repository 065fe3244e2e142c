import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import type { ModelMessage } from 'ai'
import { AppError, errorMessage, newId, type AgentEvent, type AppErrorShape, type Autonomy, type MessageAttachmentInput, type RiskRule, type Settings } from '../../shared'
import { buildSystemPrompt, runAgent, ToolCallRunner, withMemoryBlock, type AgentRunOutcome } from '../agent'
import type { ApprovalBroker, ConversationGrants } from '../approvals'
import type { StepCheckpoints } from '../checkpoints'
import { loadFromPrepared, prepareAttachments, resolveUserContent, unseenImageCount, userContentForHistory, withAttachedImages } from '../attachments'
import type { AppService } from '../lifecycle'
import {
  apiKeyEnvFor,
  describeModelError,
  isContextOverflow,
  MODEL_MAX_RETRIES,
  windowFromOverflow,
  modelAcceptsImages,
  type ContextWindow,
  type ModelClient,
  type ProviderConfig
} from '../providers'
import { DEFAULT_TRACKER_LIMITS, ProvenanceBook } from '../provenance'
import { namesSecretPath, type RiskEngine } from '../risk'
import type { ConversationStore, TurnRequest } from '../store'
import { DEFAULT_OUTPUT_LIMITS, DELEGATE_TOOL, runToolDescriptions, ToolRegistry, toolPack, type AnyTool, type ChildRunRequest, type ChildRunResult, type ToolDescriptionStyle } from '../tools'
import { ContextWindows } from './context-windows'
import { RunSlots } from './run-slots'
import { LanguageModels } from './language-models'

export interface AgentServiceDeps {
  store: ConversationStore
  registry: ToolRegistry
  approvals: ApprovalBroker
  /** Awaited by a run's first tool call: the engine loads on first use (deskclaw-app.ts). */
  risk(): Promise<RiskEngine>
  grants: ConversationGrants
  saveAlwaysRule(rule: RiskRule, approvalId: string): void
  /** True when commands run natively only because no sandbox was available (stricter policy). */
  unsandboxed?(): boolean
  commandShell?(): 'sh' | 'cmd'
  settings(): Settings
  apiKey(settings: Settings): string | undefined
  /** The saved memories offered to a run, for the user's message in this workspace (docs/tools.md, "Memory"). */
  memoryBlock?(prompt: string, workspace: string): string | null
  /** The checkpoints of this workspace, when they are on (docs/checkpoints.md). */
  checkpoints?(workspace: string): StepCheckpoints | undefined
  emit(event: AgentEvent): void
}

interface ActiveRun {
  conversationId: string
  controller: AbortController
  done: Promise<AgentRunOutcome>
  /** What this run's delegate calls give their children (docs/tools.md, "Sub-agents"). */
  parent: ParentRun
}

/** The parts of a run a child run shares: its model, autonomy and workspace. */
interface ParentRun {
  autonomy: Autonomy
  workspace: string
  model: ModelClient
  modelLabel: string
  acceptsImages: boolean
  toolDescriptions: ToolDescriptionStyle | Promise<ToolDescriptionStyle>
  contextWindow: Promise<ContextWindow>
  describeError(error: unknown): AppErrorShape
  /** The parent's runner: a child's writes empty its read cache (docs/architecture.md, "Result cache and repeated writes"). */
  runner: ToolCallRunner
}

/** How many images of a child's tools reach the parent. */
const CHILD_IMAGES_KEPT = 4

/** Starts, tracks and cancels runs; one run at a time per conversation. Cancels them all at shutdown. */
export class AgentService implements AppService {
  readonly name = 'agent'
  private readonly active = new Map<string, ActiveRun>()
  private readonly models = new LanguageModels()
  private readonly childSlots = new RunSlots(() => this.deps.settings().delegateConcurrency)
  private readonly contextWindows = new ContextWindows()
  /**
   * Each conversation's provenance for the process's life (docs/risk.md, "Provenance"): what entered
   * its context and which values came from files and secrets. A value from a file the path guardian
   * calls secret is followed as a secret.
   */
  private readonly provenance = new ProvenanceBook(DEFAULT_TRACKER_LIMITS, {
    isSecretPath: (name) => namesSecretPath(name, { home: homedir(), workspace: this.deps.settings().workspace })
  })
  /** Provider tokens per estimated token, by conversation and model, from its latest run (agent/context-keeper.ts). */
  private readonly contextScales = new Map<string, number>()

  constructor(private readonly deps: AgentServiceDeps) {}

  /**
   * Starts a run and returns at once; progress arrives as events. `attachments`: images and text
   * files sent with the text; `unseenImages` counts those a text-only model is only told about.
   * `parentRunId`, `regenerate` and `editOf` place the question (docs/architecture.md, "Message versions").
   */
  send(
    conversationId: string,
    text: string,
    options: { attachments?: readonly MessageAttachmentInput[] } & BranchOptions & StagedRunOptions & AutonomyOption = {}
  ): { runId: string; unseenImages?: number; question: { id: string; parentRunId: string | null } } {
    const { store } = this.deps
    const conversation = store.getConversation(conversationId)
    if (!conversation) {
      throw new AppError('NOT_FOUND', `Conversation ${conversationId} does not exist.`, { key: 'errors.conversation.notFound' })
    }
    for (const run of this.active.values()) {
      if (run.conversationId === conversationId) {
        throw new AppError('BUSY', 'This conversation is already working on a request. Stop it or wait.', { key: 'errors.busy' })
      }
    }
    const settings = this.deps.settings()
    // A conversation given its own model (the chat header's picker) keeps it; else the one in Settings.
    const modelId = conversation.conversation.model ?? settings.model
    const providerConfig = this.providerConfig(settings, modelId)
    const model = this.models.get(providerConfig) // throws NOT_CONFIGURED with what to set
    // A conversation started in another folder (the palette's workspace picker) keeps working there.
    const workspace = options.workspace ?? conversation.conversation.workspace ?? settings.workspace
    mkdirSync(workspace, { recursive: true })
    const acceptsImages = modelAcceptsImages({ ...settings, model: modelId })
    // `auto` goes by the model's context window, which may need one question to the server: the first model step waits for it.
    // Compaction plans with it too (docs/architecture.md, "Compaction"); the run awaits it once started.
    const contextWindow = this.contextWindows.of(providerConfig, settings.contextWindow)
    const toolDescriptions = runToolDescriptions(settings.toolDescriptions, async () => (await contextWindow).tokens)
    const attachments = prepareAttachments(options.attachments ?? []) // throws VALIDATION_FAILED for bytes that are no image

    const runId = options.runId ?? newId('run')
    if (options.regenerate && attachments.length > 0) {
      throw new AppError('VALIDATION_FAILED', 'A regenerated answer asks the same question: it takes no new attachments.')
    }
    // The model sees only the path this question is on: no other version of any answer or question.
    const turn = store.beginTurn(conversationId, runId, turnRequest(text, options))
    // Images of earlier messages are kept by id and put back for each turn as this model can take them.
    const history = withAttachedImages(turn.history as ModelMessage[], {
      acceptsImages,
      load: (id) => store.getAttachment(id)
    })
    const message = { id: turn.question.id }
    const prompt = turn.question.text
    // The user message's id is the attachments' call id: how the message list finds them again.
    for (const { ref, data } of attachments) store.saveAttachment({ ref, conversationId, runId, callId: message.id, data })
    // A regenerated answer gets its question exactly as first asked: its files and images too.
    const asked = turn.askedBefore as ModelMessage | undefined
    const forHistory = asked?.role === 'user' ? asked.content : userContentForHistory(prompt, attachments)
    const load = asked ? (id: string) => store.getAttachment(id) : loadFromPrepared(attachments)
    const userContent =
      attachments.length > 0 || asked !== undefined
        ? { forModel: resolveUserContent(forHistory, { acceptsImages, load }), forHistory }
        : undefined
    const controller = new AbortController()
    // The user spoke: what they named is theirs, and untrusted content read before no longer counts as since their last message.
    const provenance = this.provenance.of(conversationId).tracker
    provenance.userMessage(prompt)
    const runner = new ToolCallRunner({
      registry: this.deps.registry,
      approvals: this.deps.approvals,
      risk: this.deps.risk(),
      grants: this.deps.grants,
      saveAlwaysRule: this.deps.saveAlwaysRule,
      autonomy: options.autonomy ?? settings.autonomy,
      workspace,
      unsandboxed: () => this.deps.unsandboxed?.() ?? false,
      commandShell: () => this.deps.commandShell?.() ?? 'sh',
      outputLimits: DEFAULT_OUTPUT_LIMITS,
      saveAttachment: (attachment) => store.saveAttachment(attachment),
      checkpoints: this.deps.checkpoints?.(workspace),
      emit: this.deps.emit,
      readCacheTtlMs: settings.readCacheTtlSec * 1000,
      provenance
    })
    const done = runAgent(
      {
        model,
        modelLabel: `${settings.provider}:${modelId}`,
        registry: this.deps.registry,
        toolDescriptions,
        runner,
        systemPrompt: withMemoryBlock(buildSystemPrompt(workspace), this.deps.memoryBlock?.(prompt, workspace) ?? null),
        maxIterations: settings.maxIterations,
        maxRetries: MODEL_MAX_RETRIES,
        acceptsImages,
        emit: this.deps.emit,
        onModelMessages: (messages) => store.appendModelMessages(conversationId, runId, messages),
        describeError: (error) => describeModelError(error, providerConfig),
        contextWindow,
        contextScale: this.contextScaleOf(`${conversationId}\u0000${settings.provider}:${modelId}`),
        isContextOverflow,
        windowFromOverflow
      },
      {
        runId,
        conversationId,
        prompt,
        history,
        question: { id: turn.question.id, parentRunId: turn.question.parentRunId },
        signal: controller.signal,
        userContent,
        attachments: attachments.map((attachment) => attachment.ref)
      }
    ).finally(() => {
      runner.close()
      this.active.delete(runId)
      // Without this the page cache's churn grew a long-lived host by ~2 MiB per 300 runs (docs/benchmarks.md).
      if (this.active.size === 0) this.deps.store.releaseMemory()
    })
    const parent: ParentRun = {
      autonomy: options.autonomy ?? settings.autonomy,
      workspace,
      model,
      modelLabel: `${settings.provider}:${modelId}`,
      acceptsImages,
      toolDescriptions,
      contextWindow,
      describeError: (error) => describeModelError(error, providerConfig),
      runner
    }
    this.active.set(runId, { conversationId, controller, done, parent })
    const unseenImages = unseenImageCount(attachments, acceptsImages)
    const question = { id: turn.question.id, parentRunId: turn.question.parentRunId }
    return unseenImages > 0 ? { runId, unseenImages, question } : { runId, question }
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

  private contextScaleOf(key: string): { initial?: number; update(scale: number): void } {
    const initial = this.contextScales.get(key)
    return {
      ...(initial !== undefined ? { initial } : {}),
      update: (scale) => {
        // Most recently used last, at most a few hundred remembered.
        this.contextScales.delete(key)
        this.contextScales.set(key, scale)
        if (this.contextScales.size > 500) this.contextScales.delete(this.contextScales.keys().next().value!)
      }
    }
  }

  cancel(runId: string): boolean {
    const run = this.active.get(runId)
    if (!run) return false
    run.controller.abort()
    return true
  }

  /**
   * A sub-agent's run inside the parent's `delegate` call (docs/tools.md, "Sub-agents"): its own
   * loop over the named subset of the parent's tools (never `delegate`: no recursion), the parent's
   * model, autonomy and workspace, its own step limit; at most `delegateConcurrency` at once. Its
   * events go out nested (`subagent_event` under the parent's call); its questions go out as any
   * other, labelled with the task. The parent's signal cancels it. Its history is not the conversation's.
   */
  async runChild(request: ChildRunRequest): Promise<ChildRunResult> {
    const parentRun = this.active.get(request.parentRunId)
    if (!parentRun || parentRun.conversationId !== request.conversationId) {
      throw new AppError('NOT_FOUND', `Run ${request.parentRunId} is not running.`)
    }
    const tools = this.childTools(request.tools)
    const release = await this.childSlots.acquire(request.signal)
    const { parent } = parentRun
    const childRunId = newId('run')
    const emit = (event: AgentEvent): void => {
      this.deps.emit({
        type: 'subagent_event',
        runId: request.parentRunId,
        conversationId: request.conversationId,
        at: event.at,
        callId: request.parentCallId,
        childRunId,
        task: request.task,
        event
      })
    }
    const images: ChildRunResult['images'] = []
    const registry = new ToolRegistry([toolPack('delegated', tools)])
    const runner = new ToolCallRunner({
      registry,
      approvals: this.deps.approvals,
      risk: this.deps.risk(),
      grants: this.deps.grants,
      saveAlwaysRule: this.deps.saveAlwaysRule,
      autonomy: parent.autonomy,
      workspace: request.workspace,
      unsandboxed: () => this.deps.unsandboxed?.() ?? false,
      commandShell: () => this.deps.commandShell?.() ?? 'sh',
      outputLimits: DEFAULT_OUTPUT_LIMITS,
      saveAttachment: (attachment) => {
        this.deps.store.saveAttachment(attachment)
        const { ref, data } = attachment
        if (ref.kind === 'image') images.push({ mediaType: ref.mediaType as ChildRunResult['images'][number]['mediaType'], data, ...(ref.name ? { name: ref.name } : {}) })
      },
      checkpoints: this.deps.checkpoints?.(request.workspace),
      delegatedTask: request.task,
      // The child writes the parent's workspace: the parent's cached reads of it are stale.
      onWrite: () => parent.runner.workspaceWritten(),
      emit,
      // The parent's: a delegated task is the model's words, not the user's, so it resets nothing.
      provenance: this.provenance.of(request.conversationId).tracker
    })
    try {
      const outcome = await runAgent(
        {
          model: parent.model,
          modelLabel: parent.modelLabel,
          registry,
          toolDescriptions: parent.toolDescriptions,
          runner,
          systemPrompt: `${buildSystemPrompt(request.workspace)}\nYou are a sub-agent: do only the task you are given with the tools you have, then answer with the result itself.`,
          maxIterations: request.maxIterations ?? this.deps.settings().maxIterations,
          maxRetries: MODEL_MAX_RETRIES,
          acceptsImages: parent.acceptsImages,
          emit,
          onModelMessages: () => {},
          describeError: parent.describeError,
          contextWindow: parent.contextWindow,
          isContextOverflow,
          windowFromOverflow
        },
        { runId: childRunId, conversationId: request.conversationId, prompt: request.task, history: [], signal: request.signal }
      )
      const kept = images.slice(-CHILD_IMAGES_KEPT)
      if (outcome.status === 'failed') return { status: 'failed', text: '', error: outcome.error.message, iterations: outcome.iterations, images: kept }
      const status = outcome.stopReason === 'final' ? 'completed' : outcome.stopReason
      return { status, text: outcome.text, iterations: outcome.iterations, images: kept }
    } catch (error) {
      return { status: 'failed', text: '', error: errorMessage(error), iterations: 0, images: [] }
    } finally {
      runner.close()
      release()
    }
  }

  /** The parent's tools a child may use: each name known, never `delegate` itself. */
  private childTools(names: string[]): AnyTool[] {
    const refused = names.filter((name) => name === DELEGATE_TOOL)
    const unknown = names.filter((name) => name !== DELEGATE_TOOL && !this.deps.registry.get(name))
    if (refused.length > 0) throw new AppError('VALIDATION_FAILED', 'A sub-agent cannot delegate: leave "delegate" out of its tools.')
    if (unknown.length > 0) throw new AppError('VALIDATION_FAILED', `No such tool: ${unknown.join(', ')}. Name tools from your own list.`)
    return [...new Set(names)].map((name) => this.deps.registry.get(name)!)
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

/** An apply-at-end run (checkpoints/staged-runs.ts): it works in a copy of the workspace, under a run id chosen for the copy. */
export interface StagedRunOptions {
  workspace?: string
  runId?: string
}

/** A scheduled task runs at its own autonomy level (docs/tools.md, "Schedules"); absent: the one in settings. */
export interface AutonomyOption {
  autonomy?: Autonomy
}

/** Where agent.send puts its question (docs/architecture.md, "Message versions"); at most one of them. */
export interface BranchOptions {
  /** After this answer (as the chat shows it); absent: after the newest branch's last answer. */
  parentRunId?: string
  /** The question of this answer, asked again: a new version of the answer. */
  regenerate?: { runId: string }
  /** A new version of this question: a branch from where it was asked. */
  editOf?: { messageId: string }
}

function turnRequest(text: string, options: BranchOptions): TurnRequest {
  const given = [options.parentRunId, options.regenerate, options.editOf].filter((option) => option !== undefined)
  if (given.length > 1) throw new AppError('VALIDATION_FAILED', 'Give at most one of parentRunId, regenerate and editOf.')
  if (options.regenerate) return { kind: 'regenerate', runId: options.regenerate.runId }
  if (options.editOf) return { kind: 'edit', messageId: options.editOf.messageId, text }
  return { kind: 'ask', text, ...(options.parentRunId !== undefined ? { parentRunId: options.parentRunId } : {}) }
}
