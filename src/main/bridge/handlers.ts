import { isAbsolute, resolve } from 'node:path'
import {
  AppError,
  SerialOptionsSchema,
  settingsProblems,
  type CallInput,
  type CallName,
  type CallOutput,
  type ProviderTarget,
  type Settings
} from '../../shared'
import { LINE_ENDINGS } from '../devices'
import { APP_VERSION, checkSchedule, confirmRiskySettings, nextRunTimes, withSavedProviders, type DeskclawApp } from '../app'
import { exportConversation } from '../store'
import { confirmMcpTrust, mcpTrustChanges } from '../mcp'
import { detectLocalServers, listModels, testConnection } from '../providers'

export type Handler<K extends CallName> = (input: CallInput<K>) => CallOutput<K> | Promise<CallOutput<K>>
export type HandlerTable = { [K in CallName]: Handler<K> }

/** The one handler table both transports serve (docs/architecture.md). Inputs arrive already validated. */
export function createBridgeHandlers(app: DeskclawApp, transport: 'ipc' | 'websocket'): HandlerTable {
  const { store } = app
  const notFound = (id: string): AppError => new AppError('NOT_FOUND', `Conversation ${id} does not exist.`, { key: 'errors.conversation.notFound' })
  const changed = (): void => app.events.publish({ kind: 'conversations_changed' })
  /** Settings with the asked-for server in place of the saved one (the settings form tests what it shows, unsaved). */
  const targetSettings = (target: ProviderTarget): Settings => {
    const settings = app.settings()
    const otherProvider = target.provider !== undefined && target.provider !== settings.provider
    return {
      ...settings,
      provider: target.provider ?? settings.provider,
      // Another provider without a base URL of its own: its default endpoint, not this one's server.
      baseUrl: (target.baseUrl ?? (otherProvider ? '' : settings.baseUrl)).trim(),
      apiKeyEnv: (target.apiKeyEnv ?? (otherProvider ? '' : settings.apiKeyEnv)).trim()
    }
  }
  /** A saved provider's id, checked against Settings (a key is never stored for one that does not exist). */
  const knownSavedProvider = (id: string | undefined): string | undefined => {
    if (id === undefined) return undefined
    if (!app.settings().savedProviders.some((saved) => saved.id === id)) throw new AppError('VALIDATION_FAILED', `no saved provider ${id}`)
    return id
  }
  return {
    'app.info': () => ({
      version: APP_VERSION,
      transport,
      workspace: app.settings().workspace
    }),
    'conversations.list': () => store.listConversations(),
    'conversations.create': ({ title, workspace }) => {
      if (workspace !== undefined && !isAbsolute(workspace)) {
        throw new AppError('VALIDATION_FAILED', `A workspace must be an absolute folder (got "${workspace}").`)
      }
      // Untitled (stored unset) until the first question names it; the UI says so in its language.
      const conversation = store.createConversation(title, workspace === undefined ? undefined : resolve(workspace))
      changed()
      return conversation
    },
    'conversations.get': ({ id }) => {
      // In this order: reading commits and publishes the queued events first (store/commit-batches.ts).
      const detail = store.getConversation(id)
      const lastEventSeq = app.lastEventSeq()
      if (!detail) throw notFound(id)
      return { ...detail, lastEventSeq }
    },
    'conversations.rename': ({ id, title }) => {
      const renamed = store.renameConversation(id, title)
      if (!renamed) throw notFound(id)
      changed()
      return renamed
    },
    'conversations.setModel': ({ id, model }) => {
      const updated = store.setConversationModel(id, model)
      if (!updated) throw notFound(id)
      changed()
      return updated
    },
    'conversations.search': ({ query, limit }) => store.searchConversations(query, limit),
    'conversations.pin': ({ id, pinned }) => {
      const updated = store.setConversationPinned(id, pinned)
      if (!updated) throw notFound(id)
      changed()
      return updated
    },
    // Built from the stored detail alone: settings (and so anything secret) never go into a file.
    'conversations.export': ({ id, format, language, choices }) => {
      const detail = store.getConversation(id)
      if (!detail) throw notFound(id)
      return exportConversation(detail, format, { language: language ?? app.settings().language, choices })
    },
    'conversations.delete': async ({ id }) => {
      if (!(await app.deleteConversation(id))) throw notFound(id)
      changed()
      return {}
    },
    'agent.send': ({ conversationId, text, attachments, parentRunId, regenerate, editOf, applyAtEnd }) =>
      applyAtEnd
        ? app.staged.start(conversationId, (workspace, runId) => app.agent.send(conversationId, text, { attachments, parentRunId, regenerate, editOf, workspace, runId }))
        : app.agent.send(conversationId, text, { attachments, parentRunId, regenerate, editOf }),
    'agent.cancel': ({ runId }) => ({ cancelled: app.agent.cancel(runId) }),
    'approvals.pending': () => app.approvals.pending(),
    'approvals.respond': ({ approvalId, answer, reason, bindingHash }) => ({
      accepted: app.approvals.respond(approvalId, answer, { reason, bindingHash, via: transport === 'ipc' ? 'window' : 'browser' })
    }),
    'settings.get': () => app.settings(),
    'settings.update': async (asked) => {
      // Switching to a saved provider brings its values: they are checked like typed ones.
      const patch = withSavedProviders(app.settings(), asked)
      // Each field passed its own schema on the way in; what only the whole can tell (an
      // OpenAI-compatible server needs a base URL) is checked here: a patch may not add a problem.
      const before = settingsProblems(app.settings())
      const after = settingsProblems({ ...app.settings(), ...patch })
      const added = (Object.keys(after) as Array<keyof Settings>).find((key) => before[key] === undefined)
      if (added) throw new AppError('VALIDATION_FAILED', `${added}: ${after[added]}`)
      // Autonomy "full" and the "native" runtime are confirmed by the main process, not by the page that asks.
      await confirmRiskySettings(app.settings(), patch, app.settingConfirmer())
      return app.updateSettings(patch)
    },
    'providers.detectLocal': async () => ({ servers: await detectLocalServers(app.localServerProbes()) }),
    // API keys: stored encrypted in main; the answers say whether one is stored, never what it is.
    'secrets.status': () => app.apiKeys.status(),
    'secrets.setApiKey': ({ provider, key, savedProviderId }) => app.apiKeys.set({ provider, savedProviderId: knownSavedProvider(savedProviderId) }, key),
    'secrets.deleteApiKey': ({ provider, savedProviderId }) => app.apiKeys.delete({ provider, savedProviderId: knownSavedProvider(savedProviderId) }),
    'providers.listModels': async (target) => ({ models: await listModels(app.agent.providerConfig(targetSettings(target))) }),
    'providers.testConnection': ({ model, ...target }) => {
      const settings = targetSettings(target)
      return testConnection(app.agent.providerConfig(settings, model ?? settings.model))
    },
    'workspaces.recent': () => ({ workspaces: app.recentWorkspaces() }),
    'app.showConversation': ({ conversationId }) => {
      if (!store.getConversation(conversationId)) throw notFound(conversationId)
      app.events.publish({ kind: 'show_conversation', conversationId })
      return { shown: true }
    },
    'mcp.list': () => app.mcp.overview(),
    'mcp.save': async ({ name, config, previousName }) => {
      // A new command, address or allowance is confirmed by the main process, not by the page that asks.
      const changes = mcpTrustChanges(name, app.mcp.configOf(previousName ?? name), config)
      await confirmMcpTrust(changes, app.settingConfirmer(), app.settings().language)
      return app.mcp.save(name, config, previousName)
    },
    'mcp.remove': ({ name }) => app.mcp.remove(name),
    'mcp.restart': ({ name }) => app.mcp.restart(name),
    'checkpoints.changes': ({ conversationId, before, after }) => app.undo.changes(conversationId, before, after),
    'checkpoints.fileDiff': ({ conversationId, before, after, path }) => app.undo.fileDiff(conversationId, before, after, path),
    'undo.undone': ({ conversationId }) => app.undo.undone(conversationId),
    'undo.preview': (target) => app.undo.preview(target),
    'undo.apply': ({ planId, choices }) => app.undo.apply(planId, choices),
    'staged.pending': () => app.staged.pending(),
    'staged.review': ({ runId }) => app.staged.review(runId),
    'staged.fileDiff': ({ runId, path }) => app.staged.fileDiff(runId, path),
    'staged.apply': ({ runId, paths, choices }) => app.staged.apply(runId, { ...(paths ? { paths } : {}), ...(choices ? { choices } : {}) }),
    'staged.discard': ({ runId }) => {
      app.staged.discard(runId)
      return {}
    },
    'devices.list': () => app.devices.list(),
    'serial.open': async ({ path, options }) => {
      const session = await app.devices.sessions.open({ kind: 'console' }, path, SerialOptionsSchema.parse(options ?? {}))
      return { sessionId: session.id }
    },
    'serial.write': async ({ sessionId, text }) => {
      const session = app.devices.sessions.get(sessionId)
      if (!session || session.owner.kind !== 'console') throw new AppError('NOT_FOUND', `No console session ${sessionId}.`)
      return { written: await app.devices.sessions.write(sessionId, Buffer.from(text + LINE_ENDINGS[session.options.lineEnding], 'utf8')) }
    },
    'serial.close': async ({ sessionId }) => {
      const session = app.devices.sessions.get(sessionId)
      if (session && session.owner.kind !== 'console') throw new AppError('FORBIDDEN', 'That session belongs to a conversation.')
      return { closed: await app.devices.sessions.close(sessionId) }
    },
    'tools.list': () => app.registry.catalog(),
    'memories.list': ({ query, filter, limit }) => app.memories.list({ query: query?.trim() || undefined, filter, limit }),
    'memories.update': ({ id, text, scope, workspace }) => {
      // A memory moved to a workspace without one named goes to the workspace in Settings.
      const updated = app.memories.update(id, { text, scope, workspace: workspace ?? (scope === 'workspace' ? app.settings().workspace : undefined) })
      if (!updated) throw new AppError('NOT_FOUND', `Memory ${id} does not exist.`, { key: 'errors.memory.notFound' })
      return updated
    },
    'memories.delete': ({ id }) => ({ deleted: app.memories.forget(id) }),
    'memories.savedIn': ({ conversationId }) => ({ saves: app.memories.savedIn(conversationId) }),
    'schedules.list': () => ({ tasks: app.schedules.list() }),
    'schedules.add': (input) => app.schedules.add(input),
    'schedules.update': ({ id, change }) => app.schedules.update(id, change),
    'schedules.remove': ({ id }) => ({ removed: app.schedules.remove(id) }),
    'schedules.runNow': ({ id }) => {
      const started = app.schedules.runNow(id)
      return { runId: started.runId, conversationId: started.conversationId }
    },
    'schedules.preview': ({ schedule, count }) => {
      checkSchedule(schedule)
      return { times: nextRunTimes(schedule, Date.now(), count) }
    },
    'desktop.status': () => app.desktopControl(),
    'desktop.apps': () => app.chatApps(),
    'desktop.stop': () => ({ stopped: app.desktop.stop('user') !== null }),
    'desktop.learn.start': () => app.learn.start(),
    'desktop.learn.act': ({ sessionId, action }) => app.learn.act(sessionId, action),
    'desktop.learn.close': ({ sessionId }) => ({ closed: app.learn.close(sessionId) }),
    'attachments.get': ({ id }) => {
      const attachment = store.getAttachment(id)
      if (!attachment) throw new AppError('NOT_FOUND', `Attachment ${id} does not exist (its conversation may have been deleted).`)
      return { id: attachment.id, kind: attachment.kind, mediaType: attachment.mediaType, name: attachment.name, data: attachment.data.toString('base64') }
    }
  }
}
