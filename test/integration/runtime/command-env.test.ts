/**
 * The environment allowlist with real commands (docs/runtimes.md, "The environment allowlist"):
 * the credential probes are set in this process's environment, `env -0` runs on native, bwrap and
 * docker, and what it prints holds only allowlisted names — plus a name the user added, and never
 * the model key's variable, even when listed. Then through the app: a name added in Settings
 * reaches a shell command the model runs, the key variable is refused by settings.update.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BwrapRuntime, COMMAND_ENV_ALLOWLIST, DockerRuntime, NativeRuntime, type Runtime } from '../../../src/main/runtime'
import type { CommandEnvOptions } from '../../../src/main/runtime'
import { createBridgeHandlers } from '../../../src/main/bridge'
import type { AgentEventOf } from '../../../src/shared'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptedServer } from '../../fixtures/scripted-types'
import { requireCapability } from '../../helpers/capability'
import { CREDENTIAL_ENV, CREDENTIAL_ENV_NAMES } from '../../helpers/credential-env'
import { createTempApp, runPrompt } from '../../helpers/temp-app'
import { dockerTestImageReady, removeTempWorkspaces, TEST_IMAGE, tempWorkspace } from './helpers'

afterAll(removeTempWorkspaces)

const bwrapProbe = await BwrapRuntime.probe()
const bwrapReady = requireCapability('bwrap', bwrapProbe.ok, bwrapProbe.ok ? '' : bwrapProbe.reason)
const dockerReady = await dockerTestImageReady()

const ALLOWED = new Set(COMMAND_ENV_ALLOWLIST.map((variable) => variable.name))
/**
 * Not from the app's environment: every command carries the run marker (docs/runtimes.md, "A run
 * owns its processes"), bwrap's --chdir sets PWD; the engine names the container (HOSTNAME), docker's
 * wrapper shell sets PWD/SHLVL.
 */
const ADDED_ON_HOST = new Set(['DESKCLAW_RUN_ID'])
const ADDED_BY_BWRAP = new Set([...ADDED_ON_HOST, 'PWD'])
const ADDED_BY_DOCKER = new Set([...ADDED_ON_HOST, 'HOSTNAME', 'PWD', 'SHLVL'])
const MODEL_KEY_ENV = 'DESKCLAW_PROBE_MODEL_KEY'
const MODEL_KEY = 'sk-probe-model-key-0123456789abcdef'
const USER_ADDED = 'DESKCLAW_PROBE_USER_ADDED'

let saved: NodeJS.ProcessEnv
beforeEach(() => {
  saved = { ...process.env }
  Object.assign(process.env, CREDENTIAL_ENV, { [MODEL_KEY_ENV]: MODEL_KEY, [USER_ADDED]: 'user-added-value', KEY_COPY: MODEL_KEY })
})
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
  Object.assign(process.env, saved)
})

async function commandEnvironment(runtime: Runtime, extra: { conversationId?: string } = {}): Promise<Record<string, string>> {
  const result = await runtime.exec({ argv: ['env', '-0'], cwd: tempWorkspace(), timeoutMs: 20_000, ...extra })
  expect(result.exitCode, result.stderr).toBe(0)
  return Object.fromEntries(
    result.stdout
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)])
  )
}

const listed: CommandEnvOptions = {
  allowEnv: [USER_ADDED, MODEL_KEY_ENV, 'KEY_COPY'],
  modelKeys: () => ({ names: [MODEL_KEY_ENV], values: [MODEL_KEY] })
}

function expectOnlyAllowlisted(env: Record<string, string>, also: ReadonlySet<string> = new Set()): void {
  const extra = Object.keys(env).filter((name) => !ALLOWED.has(name) && !also.has(name))
  expect(extra).toEqual([])
  for (const name of [...CREDENTIAL_ENV_NAMES, MODEL_KEY_ENV, 'KEY_COPY']) expect(env[name], name).toBeUndefined()
  expect(Object.values(env).some((value) => value.includes(MODEL_KEY))).toBe(false)
}

const cases: Array<{ name: string; ready: boolean; make(options: CommandEnvOptions): Runtime; also?: ReadonlySet<string>; privateTemp?: boolean }> = [
  { name: 'native', ready: process.platform !== 'win32', make: (options) => new NativeRuntime(options), also: ADDED_ON_HOST },
  { name: 'bwrap', ready: bwrapReady, make: (options) => new BwrapRuntime(options), also: ADDED_BY_BWRAP, privateTemp: true },
  { name: 'docker', ready: dockerReady, make: (options) => new DockerRuntime({ image: TEST_IMAGE, ...options }), also: ADDED_BY_DOCKER, privateTemp: true }
]

for (const runtimeCase of cases) {
  describe.runIf(runtimeCase.ready)(`the environment of a command on ${runtimeCase.name}`, () => {
    const runtimes: Runtime[] = []
    const make = (options: CommandEnvOptions) => {
      const runtime = runtimeCase.make(options)
      runtimes.push(runtime)
      return runtime
    }
    afterAll(async () => {
      for (const runtime of runtimes) await runtime.close?.()
    })

    it(`holds only allowlisted names; none of the ${CREDENTIAL_ENV_NAMES.length} credential probes`, async () => {
      const env = await commandEnvironment(make({}), { conversationId: `env-${process.pid}-a` })
      expectOnlyAllowlisted(env, runtimeCase.also)
      expect(env.PATH).toBeDefined()
      // Sandboxes point TMPDIR at their private /tmp; native passes the app's own, if it has one.
      if (runtimeCase.privateTemp) expect(env.TMPDIR).toBe('/tmp')
      else expect(env.TMPDIR).toBe(saved.TMPDIR)
    })

    it('holds a name the user added, and never the model key — not even when listed, not under another name', async () => {
      const env = await commandEnvironment(make(listed), { conversationId: `env-${process.pid}-b` })
      expect(env[USER_ADDED]).toBe('user-added-value')
      expectOnlyAllowlisted(env, new Set([...(runtimeCase.also ?? []), USER_ADDED]))
    })
  })
}

describe('the allowlist through the app', () => {
  let server: ScriptedServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('a name added in Settings reaches the next command; the model key variable is refused and never reaches one', async () => {
    const command = `echo "added=[$${USER_ADDED}] key=[$${MODEL_KEY_ENV}] pat=[$GH_PAT]"`
    server = await startScriptedOpenAI([
      { toolCalls: [{ name: 'shell', args: { command } }] },
      { text: 'one' },
      { toolCalls: [{ name: 'shell', args: { command } }] },
      { text: 'two' }
    ])
    const temp = createTempApp(server.url, { runtime: 'native', autonomy: 'full', apiKeyEnv: MODEL_KEY_ENV }, { [MODEL_KEY_ENV]: MODEL_KEY }, {})
    try {
      const handlers = createBridgeHandlers(temp.app, 'websocket')
      const output = (events: Awaited<ReturnType<typeof runPrompt>>['events']) =>
        (events.find((event) => event.type === 'tool_call_completed') as AgentEventOf<'tool_call_completed'>).output
      expect(output((await runPrompt(temp, 'before')).events)).toContain('added=[] key=[] pat=[]')

      const refused = await Promise.resolve()
        .then(() => handlers['settings.update']({ allowedEnv: [USER_ADDED, MODEL_KEY_ENV] }))
        .then(
        () => null,
        (error: Error) => error.message
      )
      expect(refused).toMatch(`${MODEL_KEY_ENV} holds the model's API key`)
      await handlers['settings.update']({ allowedEnv: [USER_ADDED] })
      expect(temp.app.settings().allowedEnv).toEqual([USER_ADDED])
      expect(output((await runPrompt(temp, 'after')).events)).toContain('added=[user-added-value] key=[] pat=[]')
    } finally {
      await temp.dispose()
    }
  })
})
