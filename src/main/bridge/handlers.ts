import { isAbsolute, resolve } from 'node:path'
import { AppError, SerialOptionsSchema, type CallInput, type CallName, type CallOutput } from '../../shared'
import { LINE_ENDINGS } from '../devices'
import { APP_VERSION, confirmRiskySettings, type DeskclawApp } from '../app'
import { detectLocalServers } from '../providers'

export type Handler<K extends CallName> = (input: CallInput<K>) => CallOutput<K> | Promise<CallOutput<K>>
export type HandlerTable = { [K in CallName]: Handler<K> }

/** The one handler table both transports serve (docs/architecture.md). Inputs arrive already validated. */
export function createBridgeHandlers(app: DeskclawApp, transport: 'ipc' | 'websocket'): HandlerTable {
  const { store } = app
  const notFound = (id: string): AppError => new AppError('NOT_FOUND', `Conversation ${id} does not exist.`)
  const changed = (): void => app.events.publish({ kind: 'conversations_changed' })
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
      const conversation = store.createConversation(title, workspace === undefined ? undefined : resolve(workspace))
      changed()
      return conversation
    },
    'conversations.get': ({ id }) => {
      const lastEventSeq = app.lastEventSeq()
      const detail = store.getConversation(id)
      if (!detail) throw notFound(id)
      return { ...detail, lastEventSeq }
    },
    'conversations.rename': ({ id, title }) => {
      const renamed = store.renameConversation(id, title)
      if (!renamed) throw notFound(id)
      changed()
      return renamed
    },
    'conversations.delete': async ({ id }) => {
      if (!(await app.deleteConversation(id))) throw notFound(id)
      changed()
      return {}
    },
    'agent.send': ({ conversationId, text }) => app.agent.send(conversationId, text),
    'agent.cancel': ({ runId }) => ({ cancelled: app.agent.cancel(runId) }),
    'approvals.pending': () => app.approvals.pending(),
    'approvals.respond': ({ approvalId, answer, reason, bindingHash }) => ({
      accepted: app.approvals.respond(approvalId, answer, { reason, bindingHash })
    }),
    'settings.get': () => app.settings(),
    'settings.update': async (patch) => {
      // Autonomy "full" and the "native" runtime are confirmed by the main process, not by the page that asks.
      await confirmRiskySettings(app.settings(), patch, app.settingConfirmer())
      return app.updateSettings(patch)
    },
    'providers.detectLocal': async () => ({ servers: await detectLocalServers(app.localServerProbes()) }),
    'workspaces.recent': () => ({ workspaces: app.recentWorkspaces() }),
    'app.showConversation': ({ conversationId }) => {
      if (!store.getConversation(conversationId)) throw notFound(conversationId)
      app.events.publish({ kind: 'show_conversation', conversationId })
      return { shown: true }
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
    'desktop.status': () => app.desktopControl(),
    'desktop.stop': () => ({ stopped: app.desktop.stop('user') !== null }),
    'attachments.get': ({ id }) => {
      const attachment = store.getAttachment(id)
      if (!attachment) throw new AppError('NOT_FOUND', `Attachment ${id} does not exist (its conversation may have been deleted).`)
      return { id: attachment.id, kind: attachment.kind, mediaType: attachment.mediaType, name: attachment.name, data: attachment.data.toString('base64') }
    }
  }
}
