import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import type { AgentEvent } from '../../src/shared'

const cli = cliPath
let server: ScriptedServer | undefined

requireBuiltCli()

afterEach(async () => {
  await server?.close()
  server = undefined
})

interface CliResult {
  code: number | null
  stdout: string
  stderr: string
  events: AgentEvent[]
  workspace: string
}

async function runCli(args: string[], script: ScriptStep[] = []): Promise<CliResult> {
  server = await startScriptedOpenAI(script)
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-cli-'))
  const workspace = join(root, 'ws')
  const child = spawn(
    process.execPath,
    [cli, 'run', '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'scripted-model', '--workspace', workspace, ...args],
    { env: { ...process.env, DESKCLAW_HOME: join(root, 'home') }, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const events = args.includes('--json')
    ? stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as AgentEvent)
    : []
  return { code, stdout, stderr, events, workspace }
}

const writeThenAnswer: ScriptStep[] = [
  { text: 'Writing.', toolCalls: [{ name: 'file_write', args: { path: 'out.txt', content: 'hello' } }] },
  { text: 'All done.' }
]

describe('deskclaw run', () => {
  it('--json prints every event as one JSON object per line', async () => {
    const result = await runCli(['--json', '--approve', 'allow', 'write a file'], writeThenAnswer)
    expect(result.code).toBe(0)
    const types = result.events.map((event) => event.type)
    expect(types[0]).toBe('run_started')
    expect(types).toEqual(
      expect.arrayContaining(['text_delta', 'tool_call_started', 'approval_requested', 'approval_resolved', 'tool_call_completed'])
    )
    expect(types.at(-1)).toBe('run_completed')
    const started = result.events.find((e) => e.type === 'tool_call_started')
    expect(started).toMatchObject({ tool: 'file_write', args: { path: 'out.txt', content: 'hello' } })
    expect(started).toHaveProperty('callId')
    const completed = result.events.find((e) => e.type === 'tool_call_completed')
    // A write's result is its display line (a message code); it printed nothing (issue 22, item 8).
    expect(completed).toMatchObject({ tool: 'file_write', isError: false, output: '', display: { key: 'result.wrote', params: { bytes: 5, path: 'out.txt' } } })
    expect(completed).toHaveProperty('durationMs')
    expect(result.events.at(-1)).toMatchObject({ type: 'run_completed', text: 'All done.', stopReason: 'final', iterations: 2 })
    expect(readFileSync(join(result.workspace, 'out.txt'), 'utf8')).toBe('hello')
  })

  it('--approve deny: the write does not happen and the model is told why', async () => {
    const result = await runCli(['--json', '--approve', 'deny', 'write a file'], writeThenAnswer)
    expect(result.code).toBe(0)
    expect(existsSync(join(result.workspace, 'out.txt'))).toBe(false)
    expect(result.events.find((e) => e.type === 'approval_resolved')).toMatchObject({ answer: 'deny', by: 'policy' })
    const toolMessage = server!.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool')
    expect(toolMessage.content).toMatch(/not approved .*Denied by --approve deny/)
  })

  it('without a terminal, --approve ask (the default) denies', async () => {
    const result = await runCli(['--json', 'write a file'], writeThenAnswer)
    expect(existsSync(join(result.workspace, 'out.txt'))).toBe(false)
    expect(result.events.find((e) => e.type === 'approval_resolved')).toMatchObject({ answer: 'deny', by: 'no_front_door' })
  })

  it('bad tool calls come back to the model and the run goes on', async () => {
    const result = await runCli(['--json', 'try'], [
      {
        toolCalls: [
          { name: 'no_such_tool', args: {} },
          { name: 'file_write', args: '{"path": ' },
          { name: 'file_read', args: { path: '../../../etc/shadow' } }
        ]
      },
      { text: 'Recovered.' }
    ])
    expect(result.code).toBe(0)
    const errors = result.events.filter((e) => e.type === 'tool_call_completed')
    expect(errors).toHaveLength(3)
    expect(errors.every((e) => e.type === 'tool_call_completed' && e.isError)).toBe(true)
    expect(result.events.at(-1)).toMatchObject({ type: 'run_completed', text: 'Recovered.' })
  })

  it('prints the answer for people without --json', async () => {
    const result = await runCli(['--approve', 'allow', 'write a file'], writeThenAnswer)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Writing.All done.')
    expect(result.stderr).toContain('✓ file_write completed')
  })

  it('an unreachable server ends with one line on stderr, no stack trace, exit 1', async () => {
    server = await startScriptedOpenAI([])
    const url = server.url
    await server.close()
    const root = mkdtempSync(join(tmpdir(), 'deskclaw-cli-'))
    const child = spawn(process.execPath, [cli, 'run', '--base-url', url, '--model', 'm', '--workspace', root, 'hi'], {
      env: { ...process.env, DESKCLAW_HOME: join(root, 'home') }
    })
    let stderr = ''
    let stdout = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdout.on('data', (chunk) => (stdout += chunk))
    const code = await new Promise((resolve) => child.on('close', resolve))
    server = undefined
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^deskclaw: Cannot reach the model server at http:\/\/127\.0\.0\.1:\d+\/v1/)
    expect(stderr + stdout).not.toMatch(/\n\s+at /)
  })

  it('a reader that stops reading (| head -1) ends it quietly with 141, no stack trace', async () => {
    server = await startScriptedOpenAI([{ text: 'Hello there, this answer is streamed in many small pieces. '.repeat(40) }])
    const root = mkdtempSync(join(tmpdir(), 'deskclaw-cli-'))
    const child = spawn(
      process.execPath,
      [cli, 'run', '--json', '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'scripted-model', '--workspace', join(root, 'ws'), 'hi'],
      { env: { ...process.env, DESKCLAW_HOME: join(root, 'home') }, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    let first = ''
    child.stdout.on('data', (chunk: Buffer) => {
      first += chunk.toString()
      if (first.includes('\n')) child.stdout.destroy() // what `head -1` does after its line
    })
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(JSON.parse(first.split('\n')[0]!).type).toBe('run_started')
    expect(stderr).not.toMatch(/EPIPE|at .*\.js:\d+/)
    expect(code).toBe(141)
  })

  it('stopping at --max-iterations exits 3', async () => {
    const again: ScriptStep = () => ({ toolCalls: [{ name: 'file_list', args: {} }] })
    const result = await runCli(['--json', '--max-iterations', '2', 'loop'], [again, again, again])
    expect(result.code).toBe(3)
    expect(result.events.at(-1)).toMatchObject({ type: 'run_completed', stopReason: 'max_iterations', iterations: 2 })
  })

  it('usage errors exit 2 with one line', async () => {
    const result = await runCli(['--autonomy', 'yolo', 'hi'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('deskclaw: --autonomy must be readonly, supervised or full (got "yolo")\n')
  })

  it('--tool-descriptions full|compact chooses the declarations the model gets (docs/tools.md, "Compact tool descriptions")', async () => {
    const described = async (choice: string) => {
      expect((await runCli(['--json', '--tool-descriptions', choice, 'hi'], [{ text: 'ok' }])).code).toBe(0)
      const tools = server!.requests[0]!.body.tools as Array<{ function: { name: string; description: string } }>
      await server!.close() // runCli starts the next one
      return new Map(tools.map((t) => [t.function.name, t.function.description]))
    }
    const full = await described('full')
    const compact = await described('compact')
    expect([...compact.keys()]).toEqual([...full.keys()])
    expect(compact.get('file_read')!.length).toBeLessThan(full.get('file_read')!.length)
    for (const description of compact.values()) expect(description).not.toMatch(/\n/)
    const bad = await runCli(['--tool-descriptions', 'tiny', 'hi'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('deskclaw: --tool-descriptions must be auto, full or compact (got "tiny")\n')
  })
})

describe('deskclaw run --approve ask on a terminal', () => {
  it('prompts with what will run and honours the answer', async () => {
    server = await startScriptedOpenAI(writeThenAnswer)
    const root = mkdtempSync(join(tmpdir(), 'deskclaw-tty-'))
    const workspace = join(root, 'ws')
    const command = [process.execPath, cli, 'run', '--base-url', server.url, '--model', 'm', '--workspace', workspace, 'write a file']
      .map((part) => `'${part}'`)
      .join(' ')
    // `script` gives the CLI a real pseudo-terminal; "y" answers the prompt.
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, DESKCLAW_HOME: join(root, 'home') },
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let screen = ''
    child.stdout.on('data', (chunk) => {
      screen += chunk
      if (screen.includes('[N]o ') && !screen.includes('[answered]')) {
        screen += '[answered]'
        child.stdin.write('y\r')
      }
    })
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(screen).toContain('Write a file (file_write)')
    expect(screen).toMatch(/Content:\s+hello/)
    expect(code).toBe(0)
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8')).toBe('hello')
  })
})
