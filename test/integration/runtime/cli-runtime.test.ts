import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Docker from 'dockerode'
import { afterEach, describe, expect, it } from 'vitest'
import { DOCKER_LABELS } from '../../../src/main/runtime'
import type { AgentEvent, AgentEventOf } from '../../../src/shared'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../../fixtures/scripted-types'
import { createTempApp, runPrompt } from '../../helpers/temp-app'
import { cliPath } from '../../helpers/cli'
import { dockerTestImageReady, TEST_IMAGE } from './helpers'

/** The runtimes through the front doors: `deskclaw run --runtime …` and the app's conversation lifecycle. */
const ready = await dockerTestImageReady()
const cli = cliPath
let server: ScriptedServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

const shell = (command: string): ScriptStep => ({ toolCalls: [{ name: 'shell', args: { command } }] })

function startCli(args: string[], script: ScriptStep[]) {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-cli-rt-'))
  const workspace = join(root, 'ws')
  mkdirSync(workspace, { recursive: true })
  return startScriptedOpenAI(script).then((started) => {
    server = started
    const child = spawn(
      process.execPath,
      [cli, 'run', '--json', '--approve', 'allow', '--base-url', started.url, '--model', 'm', '--workspace', workspace, ...args, 'do it'],
      { env: { ...process.env, DESKCLAW_HOME: join(root, 'home') }, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    const events: Array<AgentEvent & { receivedAt: number }> = []
    let buffer = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      let newline: number
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        if (line.trim()) events.push({ ...(JSON.parse(line) as AgentEvent), receivedAt: Date.now() })
      }
    })
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    return { child, events, exited, workspace, stderr: () => stderr }
  })
}

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.runIf(ready)('deskclaw run --runtime docker (real engine)', () => {
  it('streams output live into --json, names the runtime, and writes into the host workspace', async () => {
    const run = await startCli(
      ['--runtime', 'docker', '--docker-image', TEST_IMAGE],
      [shell('echo first; sleep 1; echo second > out.txt; cat out.txt'), { text: 'done' }]
    )
    expect(await run.exited).toBe(0)
    const delta = run.events.find((e) => e.type === 'tool_output_delta' && e.chunk.includes('first'))!
    const completed = run.events.find((e): e is AgentEventOf<'tool_call_completed'> & { receivedAt: number } => e.type === 'tool_call_completed')!
    // The first line arrived while the command was still sleeping, not at the end.
    expect(completed.receivedAt - delta.receivedAt).toBeGreaterThan(700)
    expect(completed).toMatchObject({ status: 'completed', runtime: 'docker' })
    expect(readFileSync(join(run.workspace, 'out.txt'), 'utf8')).toBe('second\n')
  })

  it('Ctrl+C stops a running sleep 100 within a second and leaves no process in the container', async () => {
    const run = await startCli(['--runtime', 'docker', '--docker-image', TEST_IMAGE], [shell('sleep 100'), { text: 'never' }])
    await waitFor(() => run.events.some((e) => e.type === 'tool_call_started'))
    await new Promise((resolve) => setTimeout(resolve, 1500)) // the container is up and sleep is running
    const sent = Date.now()
    run.child.kill('SIGINT')
    const code = await run.exited
    const completed = run.events.find((e) => e.type === 'tool_call_completed')
    expect(code).toBe(130)
    expect(completed && completed.receivedAt - sent).toBeLessThan(1000)
    expect(completed).toMatchObject({ isError: true, runtime: 'docker' })
    // The CLI removed its containers on the way out.
    const docker = new Docker()
    const left = await docker.listContainers({ all: true, filters: { label: [`${DOCKER_LABELS.ownerPid}=${run.child.pid}`] } })
    expect(left).toEqual([])
  })

  it('an explicit docker runtime that cannot run fails the command clearly instead of running unsandboxed', async () => {
    const run = await startCli(['--runtime', 'docker', '--docker-image', 'deskclaw/no-such-image:0'], [shell('touch escaped.txt'), { text: 'ok' }])
    await run.exited
    const completed = run.events.find((e) => e.type === 'tool_call_completed') as AgentEventOf<'tool_call_completed'>
    expect(completed).toMatchObject({ status: 'error', isError: true })
    expect(completed.output).toMatch(/deskclaw\/no-such-image:0/)
    expect(existsSync(join(run.workspace, 'escaped.txt'))).toBe(false)
  })
})

describe.runIf(ready)('conversation lifecycle with the docker runtime', () => {
  it('keeps one container per conversation and removes it when the conversation is deleted', async () => {
    server = await startScriptedOpenAI([shell('echo hi'), { text: 'one' }])
    const temp = createTempApp(server.url, { runtime: 'docker', dockerImage: TEST_IMAGE, autonomy: 'full' })
    try {
      const { conversationId, events } = await runPrompt(temp, 'hi')
      expect(events.find((e) => e.type === 'tool_call_completed')).toMatchObject({ runtime: 'docker', status: 'completed' })
      const docker = new Docker()
      const mine = () => docker.listContainers({ all: true, filters: { label: [`${DOCKER_LABELS.conversation}=${conversationId}`] } })
      expect(await mine()).toHaveLength(1)
      expect(await temp.app.deleteConversation(conversationId)).toBe(true)
      expect(await mine()).toEqual([])
    } finally {
      await temp.dispose()
    }
  })
})

describe('secrets in the environment', () => {
  it('are scrubbed before a command runs, unless the user allows the variable (--allow-env)', async () => {
    process.env.DESKCLAW_TEST_API_TOKEN = 'secret-value-123'
    try {
      const script = [shell('echo "token=[$DESKCLAW_TEST_API_TOKEN]"'), { text: 'ok' }]
      const scrubbed = await startCli(['--runtime', 'native'], script)
      await scrubbed.exited
      await server?.close()
      const allowed = await startCli(['--runtime', 'native', '--allow-env', 'DESKCLAW_TEST_API_TOKEN'], script)
      await allowed.exited
      const outputOf = (events: AgentEvent[]) => (events.find((e) => e.type === 'tool_call_completed') as AgentEventOf<'tool_call_completed'>).output
      expect(outputOf(scrubbed.events)).toContain('token=[]')
      expect(outputOf(allowed.events)).toContain('token=[secret-value-123]')
    } finally {
      delete process.env.DESKCLAW_TEST_API_TOKEN
    }
  })
})

describe('deskclaw doctor', () => {
  it('reports each runtime with a reason when it cannot run, as text and as JSON', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [cli, 'doctor', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        let stdout = ''
        child.stdout.on('data', (chunk) => (stdout += chunk))
        child.on('close', (code) => resolve({ code, stdout }))
      })
    const text = await run([])
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^Runtimes \(where shell commands run\):\n {2}✓ native/)
    expect(text.stdout).toMatch(/The "auto" setting would use (docker|bwrap|sandbox-exec|native)/)
    const json = JSON.parse((await run(['--json', '--docker-image', 'deskclaw/no-such-image:0'])).stdout) as {
      runtimes: Array<{ name: string; ok: boolean; reason?: string }>
    }
    const byName = Object.fromEntries(json.runtimes.map((r) => [r.name, r]))
    expect(byName.native).toMatchObject({ ok: true })
    expect(byName['sandbox-exec']).toMatchObject({ ok: process.platform === 'darwin' })
    if (ready) expect(byName['docker-image']).toMatchObject({ ok: false, reason: expect.stringContaining('deskclaw/no-such-image:0') })
  })
})
