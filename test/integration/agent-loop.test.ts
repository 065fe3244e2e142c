import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { ScriptStep } from '../fixtures/scripted-types'
import { createTempApp, runPrompt, scriptedApps } from '../helpers/temp-app'
import { unmarked } from '../helpers/untrusted'

const apps = scriptedApps()
const { setup } = apps

/** The tool messages the model received in request n (OpenAI wire format). */
function toolMessages(n: number): Array<{ tool_call_id: string; content: string }> {
  return apps.server().requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'tool')
}

describe('agent loop against a scripted OpenAI-compatible server', () => {
  it('gives SQLite\'s page cache back once no run is left going, not while one is', async () => {
    const app = await setup([{ text: 'first' }, { text: 'second' }, { text: 'third' }])
    const release = vi.spyOn(app.app.store, 'releaseMemory')
    const conversation = app.app.store.createConversation()
    const one = app.app.agent.send(conversation.id, 'one')
    const two = app.app.agent.send(app.app.store.createConversation().id, 'two')
    await app.app.agent.wait(one.runId)
    await app.app.agent.wait(two.runId)
    // Two runs at once: only the end of the last one leaves nothing going.
    expect(release).toHaveBeenCalledTimes(1)
    await runPrompt(app, 'three', conversation.id)
    expect(release).toHaveBeenCalledTimes(2)
  })

  it('streams text, runs an approved file_write, feeds the result back and finishes', async () => {
    const app = await setup([
      { text: 'Writing it. ', toolCalls: [{ name: 'file_write', args: { path: 'notes/hello.txt', content: 'hi there\n' } }] },
      { text: 'Done: notes/hello.txt holds the greeting.' }
    ])
    app.setApprover('allow_once')
    const { outcome, events, conversationId } = await runPrompt(app, 'write a greeting')

    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'final', iterations: 2 })
    expect(readFileSync(join(app.workspace, 'notes/hello.txt'), 'utf8')).toBe('hi there\n')
    const types = events.map((event) => event.type)
    expect(types[0]).toBe('run_started')
    expect(types.at(-1)).toBe('run_completed')
    expect(types.filter((t) => t === 'text_delta').length).toBeGreaterThan(2)
    expect(types).toEqual(expect.arrayContaining(['approval_requested', 'approval_resolved', 'tool_call_completed']))
    const requested = events.find((event) => event.type === 'approval_requested')
    expect(requested && requested.type === 'approval_requested' && requested.preview.fields).toEqual([
      { label: { key: 'path' }, value: 'notes/hello.txt', code: true, arg: 'path' },
      { label: { key: 'content' }, value: 'hi there\n', code: true }
    ])
    expect(toolMessages(1)[0]!.content).toContain('Wrote 9 bytes to notes/hello.txt')

    const detail = app.app.store.getConversation(conversationId)!
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant'])
    expect(detail.messages.at(-1)!.content).toBe('Done: notes/hello.txt holds the greeting.')
    expect(detail.toolCalls[0]).toMatchObject({ tool: 'file_write', status: 'completed', isError: false })
  })

  it('a denied write does not happen and the model is told why', async () => {
    const app = await setup([
      { toolCalls: [{ name: 'file_write', args: { path: 'x.txt', content: 'nope' } }] },
      { text: 'Understood, I did not write it.' }
    ])
    app.setApprover('deny', 'not today')
    const { outcome, events } = await runPrompt(app, 'write x')

    expect(outcome.status).toBe('completed')
    expect(existsSync(join(app.workspace, 'x.txt'))).toBe(false)
    const told = toolMessages(1)[0]!.content
    expect(told).toContain('The user denied this file_write call')
    expect(told).toContain('not today')
    expect(events.find((e) => e.type === 'tool_call_completed')).toMatchObject({ status: 'denied', isError: true })
  })

  it('with nobody to ask, supervised mode denies instead of running', async () => {
    const app = await setup([{ toolCalls: [{ name: 'shell', args: { command: 'touch made-it' } }] }, { text: 'ok' }])
    const { events } = await runPrompt(app, 'touch a file')
    expect(existsSync(join(app.workspace, 'made-it'))).toBe(false)
    expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ answer: 'deny', by: 'no_front_door' })
  })

  it('reads run without asking in supervised mode', async () => {
    const app = await setup([{ toolCalls: [{ name: 'file_list', args: {} }] }, { text: 'listed' }])
    writeFileSync(join(app.workspace, 'a.txt'), 'a')
    const { events } = await runPrompt(app, 'list')
    expect(events.some((e) => e.type === 'approval_requested')).toBe(false)
    expect(unmarked(toolMessages(1)[0]!.content, /^workspace file /)).toBe('a.txt')
  })

  it('unknown tools, malformed JSON, schema failures and escapes come back as errors and the run goes on', async () => {
    const app = await setup([
      {
        toolCalls: [
          { name: 'launch_rocket', args: { to: 'moon' } },
          { name: 'file_read', args: '{"path": "a.txt"' },
          { name: 'file_read', args: { path: 42 } },
          { name: 'file_read', args: { path: '../../etc/passwd' } },
          { name: 'file_read', args: { path: '/etc/hostname' } }
        ]
      },
      { text: 'I see the errors.' }
    ])
    const { outcome, events } = await runPrompt(app, 'try things')
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'final', iterations: 2 })
    const results = toolMessages(1).map((m) => m.content)
    expect(results).toHaveLength(5)
    expect(results[0]).toMatch(/Unknown tool "launch_rocket".*file_read/)
    expect(results[1]).toMatch(/not valid JSON/)
    expect(results[2]).toMatch(/Invalid arguments for file_read/)
    expect(results[3]).toMatch(/outside the workspace/)
    expect(results[4]).toMatch(/outside the workspace/)
    expect(events.filter((e) => e.type === 'tool_call_completed').every((e) => e.type === 'tool_call_completed' && e.isError)).toBe(true)
  })

  it('refuses a symlink that leads out of the workspace', async () => {
    const app = await setup([
      { toolCalls: [{ name: 'file_write', args: { path: 'link/owned.txt', content: 'x' } }] },
      { text: 'refused' }
    ])
    symlinkSync('/tmp', join(app.workspace, 'link'))
    app.setApprover('allow_once')
    await runPrompt(app, 'write through the link')
    expect(toolMessages(1)[0]!.content).toMatch(/outside the workspace/)
    expect(existsSync('/tmp/owned.txt')).toBe(false)
  })

  it('runs a step\'s tool calls in parallel and the same call only once', async () => {
    const app = await setup(
      [
        {
          toolCalls: [
            { name: 'shell', args: { command: 'sleep 0.5; echo one' } },
            { name: 'shell', args: { command: 'sleep 0.5; echo two' } },
            { name: 'shell', args: { command: 'sleep 0.5; echo two' } }
          ]
        },
        { text: 'both ran' }
      ],
      { autonomy: 'full' }
    )
    const { events } = await runPrompt(app, 'run two')
    const completed = events.filter((e) => e.type === 'tool_call_completed')
    expect(completed).toHaveLength(2) // the duplicate ran once
    const results = toolMessages(1).map((m) => m.content)
    expect(results).toHaveLength(3) // but every call id got a result
    expect(results[1]).toBe(results[2])
    // In parallel: the two 0.5 s commands overlapped (each started before the other finished).
    const started = events.filter((e) => e.type === 'tool_call_started').map((e) => e.at)
    const ended = completed.map((e) => e.at)
    expect(Math.max(...started)).toBeLessThan(Math.min(...ended))
  })

  it('stops at maxIterations', async () => {
    const loopForever: ScriptStep = () => ({ toolCalls: [{ name: 'file_list', args: {} }] })
    const app = await setup([loopForever, loopForever, loopForever, loopForever], { maxIterations: 3 })
    const { outcome } = await runPrompt(app, 'never stop')
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'max_iterations', iterations: 3 })
    expect(apps.server().requests).toHaveLength(3)
  })

  it('cancel reaches the running command and its children', async () => {
    const app = await setup(
      [{ toolCalls: [{ name: 'shell', args: { command: 'sleep 100 & sleep 100; echo never' } }] }],
      { autonomy: 'full' }
    )
    const conversationId = app.app.store.createConversation().id
    const { runId } = app.app.agent.send(conversationId, 'sleep')
    await waitFor(() => app.events.some((e) => e.type === 'tool_call_started'))
    await new Promise((resolve) => setTimeout(resolve, 200))
    app.app.agent.cancel(runId)
    const outcome = await app.app.agent.wait(runId)
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'cancelled' })
    const completed = app.events.find((e) => e.type === 'tool_call_completed')
    expect(completed).toMatchObject({ isError: true })
    // How it ended is the display line; the output is only what the command printed (issue 22, item 5).
    expect(completed && completed.type === 'tool_call_completed' && completed.display).toMatchObject({ key: 'result.cancelled' })
    expect(await sleepersLeft()).toBe(0)
  })

  it('cancel reaches a model call that is still streaming', async () => {
    const app = await setup([{ hang: true }])
    const conversationId = app.app.store.createConversation().id
    const { runId } = app.app.agent.send(conversationId, 'hang')
    await waitFor(() => apps.server().requests.length === 1)
    app.app.agent.cancel(runId)
    const outcome = await app.app.agent.wait(runId)
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'cancelled' })
  })

  it('gives the model head and tail of long output, and the user all of it', async () => {
    const app = await setup(
      [{ toolCalls: [{ name: 'shell', args: { command: 'seq 1 50000' } }] }, { text: 'long' }],
      { autonomy: 'full' }
    )
    const { events } = await runPrompt(app, 'count')
    const forModel = unmarked(toolMessages(1)[0]!.content, /^command output seq 1 50000$/)
    expect(forModel).toMatch(/lines omitted/)
    expect(forModel).toMatch(/^exit code 0\nstdout:\n1\n2\n/)
    expect(forModel.trimEnd().endsWith('50000')).toBe(true)
    expect(forModel.length).toBeLessThanOrEqual(30_000 + 300)
    const completed = events.find((e) => e.type === 'tool_call_completed')
    expect(completed && completed.type === 'tool_call_completed' && completed.output.split('\n').length).toBe(50_000)
  })

  it('carries the conversation into the next turn', async () => {
    const app = await setup([{ text: 'First answer.' }, { text: 'Second answer.' }])
    const first = await runPrompt(app, 'first question')
    await runPrompt(app, 'second question', first.conversationId)
    const contents = apps.server().requests[1]!.body.messages.map((m: { role: string; content: unknown }) => `${m.role}:${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`)
    expect(contents.slice(1)).toEqual(['user:first question', 'assistant:First answer.', 'user:second question'])
  })

  it('an unreachable server fails the run with a one-line error', async () => {
    const app = await setup([])
    await apps.server().close()
    const { outcome, events } = await runPrompt(app, 'hello?')
    expect(outcome.status).toBe('failed')
    const failed = events.find((e) => e.type === 'run_failed')
    expect(failed && failed.type === 'run_failed' && failed.error.code).toBe('MODEL_UNREACHABLE')
    expect(failed && failed.type === 'run_failed' && failed.error.message).not.toContain('\n')
  })

  it("adds up each step's tokens, cached and reasoning ones included, and stores them with the run's model", async () => {
    const app = await setup([
      { toolCalls: [{ name: 'file_list', args: {} }], usage: { input: 1000, output: 20, cachedInput: 600 } },
      { text: 'Listed.', usage: { input: 1100, output: 30, reasoning: 12 } }
    ])
    const { outcome, conversationId } = await runPrompt(app, 'list')
    const expected = { inputTokens: 2100, outputTokens: 50, totalTokens: 2150, cachedInputTokens: 600, reasoningTokens: 12 }
    expect(outcome).toMatchObject({ status: 'completed', usage: expected })
    const [run] = app.app.store.getConversation(conversationId)!.runs
    expect(run).toMatchObject({ usage: expected, model: 'openai-compatible:scripted-model' })
  })

  it('a run that fails after a step still reports the tokens that step used', async () => {
    const app = await setup([
      { toolCalls: [{ name: 'file_list', args: {} }], usage: { input: 500, output: 10 } },
      { status: 400 }
    ])
    const { outcome, events, conversationId } = await runPrompt(app, 'list, then fail')
    expect(outcome.status).toBe('failed')
    const failed = events.find((e) => e.type === 'run_failed')
    expect(failed && failed.type === 'run_failed' && failed.usage).toEqual({ inputTokens: 500, outputTokens: 10, totalTokens: 510 })
    expect(app.app.store.getConversation(conversationId)!.runs[0]).toMatchObject({ status: 'failed', usage: { totalTokens: 510 } })
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Processes still running `sleep 100` (ours: nothing else here sleeps that long). */
async function sleepersLeft(): Promise<number> {
  const { execFileSync } = await import('node:child_process')
  await new Promise((resolve) => setTimeout(resolve, 300))
  try {
    return execFileSync('pgrep', ['-f', '^sleep 100$'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
  } catch {
    return 0 // pgrep exits 1 when nothing matches
  }
}

describe('agent loop against a scripted Anthropic-compatible server', () => {
  it('runs an approved write and feeds the result back as a tool_result block', async () => {
    const { startScriptedAnthropic } = await import('../fixtures/scripted-anthropic')
    const server = await startScriptedAnthropic(
      [
        { text: 'Writing.', toolCalls: [{ name: 'file_write', args: { path: 'a.md', content: '# A' } }] },
        { text: 'Wrote a.md.' }
      ],
      { apiKey: 'sk-ant-test' }
    )
    const temp = createTempApp(
      server.url,
      { provider: 'anthropic', model: 'claude-test', apiKeyEnv: 'MY_ANTHROPIC_KEY' },
      { MY_ANTHROPIC_KEY: 'sk-ant-test' }
    )
    apps.adopt({ server, temp })
    temp.setApprover('allow_once')
    const { outcome } = await runPrompt(temp, 'write a.md')
    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'final', text: 'Wrote a.md.' })
    expect(readFileSync(join(temp.workspace, 'a.md'), 'utf8')).toBe('# A')
    const blocks = server.requests[1]!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
    const result = blocks.find((b: { type: string }) => b.type === 'tool_result')
    expect(JSON.stringify(result)).toContain('Wrote 3 bytes to a.md.')
  })
})
