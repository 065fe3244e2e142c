import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { AgentEvent, ApprovalAnswer, Settings } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { DeskclawApp, type AppConfig } from '../../src/main/app'

export interface TempApp {
  app: DeskclawApp
  dataDir: string
  workspace: string
  events: AgentEvent[]
  /** Answers every approval this way (attaches a front door); null leaves questions unanswered. */
  setApprover(answer: ApprovalAnswer | null, reason?: string): void
  dispose(): Promise<void>
}

/** A real app over a real SQLite file in a temp folder, pointed at a scripted model server. */
export function createTempApp(
  baseUrl: string,
  overrides: Partial<Settings> = {},
  env: NodeJS.ProcessEnv = {},
  config: Pick<AppConfig, 'runtimeProbe' | 'toolSources' | 'localServers' | 'home' | 'clock' | 'runSchedules'> = {}
): TempApp {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-test-'))
  const dataDir = join(root, 'data')
  const workspace = join(root, 'workspace')
  mkdirSync(workspace, { recursive: true })
  const app = DeskclawApp.create({
    dataDir,
    overrides: {
      provider: 'openai-compatible',
      baseUrl,
      model: 'scripted-model',
      workspace,
      ...overrides
    },
    env,
    ...config
  })
  const events: AgentEvent[] = []
  app.events.subscribe((event) => {
    if (event.kind === 'agent') events.push(event.event)
  })
  let detach: (() => void) | null = null
  let unsubscribe: (() => void) | null = null
  return {
    app,
    dataDir,
    workspace,
    events,
    setApprover(answer, reason) {
      detach?.()
      unsubscribe?.()
      detach = app.approvals.attachFrontDoor('test')
      unsubscribe = app.events.subscribe((event) => {
        if (answer && event.kind === 'agent' && event.event.type === 'approval_requested') {
          app.approvals.respond(event.event.approvalId, answer, { reason, bindingHash: event.event.bindingHash })
        }
      })
    },
    async dispose() {
      detach?.()
      unsubscribe?.()
      await app.close()
      rmSync(root, { recursive: true, force: true })
    }
  }
}

/** Runs one prompt in a new conversation and waits for the outcome. */
export async function runPrompt(temp: TempApp, prompt: string, conversationId?: string) {
  const id = conversationId ?? temp.app.store.createConversation().id
  const { runId } = temp.app.agent.send(id, prompt)
  const outcome = await temp.app.agent.wait(runId)
  return { conversationId: id, runId, outcome, events: temp.events.filter((event) => event.runId === runId) }
}

/**
 * A scripted model server plus a temp app over it, both closed after each test. `setup` starts
 * them; `server()` is the one the current test started (its recorded requests).
 */
export function scriptedApps() {
  let server: ScriptedServer | undefined
  let temp: TempApp | undefined
  afterEach(async () => {
    await temp?.dispose()
    await server?.close()
    temp = undefined
    server = undefined
  })
  return {
    async setup(script: ScriptStep[], overrides: Partial<Settings> = {}, config: Pick<AppConfig, 'runtimeProbe' | 'toolSources' | 'localServers' | 'home' | 'clock' | 'runSchedules'> = {}): Promise<TempApp> {
      server = await startScriptedOpenAI(script)
      temp = createTempApp(server.url, overrides, {}, config)
      return temp
    },
    /** Registers a server and app a test built itself (another provider), for the same cleanup. */
    adopt(started: { server?: ScriptedServer; temp?: TempApp }): void {
      server = started.server ?? server
      temp = started.temp ?? temp
    },
    server(): ScriptedServer {
      if (!server) throw new Error('no scripted server started in this test')
      return server
    }
  }
}
