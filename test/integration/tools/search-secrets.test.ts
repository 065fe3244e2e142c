import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSearchTools, ToolRegistry, type ToolContext, type ToolOutput } from '../../../src/main/tools'
import { createGrepTool } from '../../../src/main/tools/search/grep'
import { toolPack } from '../../../src/main/tools/source'

/*
 * grep and glob obey the file tools' rules (docs/tools.md, "grep and glob"; issue 34 item 11):
 * secret names are skipped with a note, hard-linked and special files are never read, files are
 * opened race-free from the workspace's descriptor, secret values are never printed; and the
 * pattern runs in a worker that Stop and the time limit end (issue 37 item 7).
 */

const ENV_KEY = 'ENVKEY-5f1e0c77b2'
const PEM_BODY = 'PEMBODY-a8d2f0c1e9'
const RSA_BODY = 'RSABODY-0b7c3e5d91'
const OUTSIDE = 'OUTSIDE-SECRET-77c1d9a0'
const TOKEN = 'ghp_Zq8LmR2vT4xW6yB1nC3dF5gH7jK9pQ0sU2wE'
const ACCOUNT_KEY = 'q8Zr2vLw0P+aa9XkT3mN7bV1cX5zR2=='

let base: string
let workspace: string
let outside: string

function registry(grepTimeLimitMs?: number) {
  const tools = createSearchTools()
  if (grepTimeLimitMs === undefined) return new ToolRegistry([tools])
  return new ToolRegistry([toolPack('search-limited', [createGrepTool({ timeLimitMs: grepTimeLimitMs })])])
}

async function call(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal; reg?: ToolRegistry; ws?: string } = {}): Promise<ToolOutput> {
  const reg = options.reg ?? registry()
  const checked = reg.checkArgs(tool, args)
  if (!checked.ok) throw new Error(checked.error)
  const ctx: ToolContext = {
    workspace: options.ws ?? workspace,
    conversationId: 'c',
    runId: 'r',
    callId: 'k',
    signal: options.signal ?? new AbortController().signal,
    onOutput: () => undefined
  }
  return reg.execute(tool, checked.args, ctx)
}

function write(path: string, body: string) {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, body)
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-search-secrets-')))
  workspace = join(base, 'workspace')
  outside = join(base, 'outside')
  write(join(outside, 'secret.txt'), `needle ${OUTSIDE}\n`)
  write(join(workspace, '.env'), `API_KEY=needle ${ENV_KEY}\n`)
  write(join(workspace, 'certs', 'server.pem'), `needle ${PEM_BODY}\n`)
  write(join(workspace, 'keys', 'id_rsa'), `needle ${RSA_BODY}\n`)
  write(join(workspace, 'local.settings.json'), `{"needle": 1, "Values": {"Storage": "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${ACCOUNT_KEY};"}}\n`)
  write(join(workspace, 'src', 'config.ts'), `// needle\nexport const token = "${TOKEN}"\n`)
  write(join(workspace, 'src', 'plain.ts'), 'const needle = 1\n')
  // A hard link in the workspace to a file outside: its other name is the secret.
  linkSync(join(outside, 'secret.txt'), join(workspace, 'notes-link.txt'))
  execFileSync('mkfifo', [join(workspace, 'pipe.txt')])
})

afterAll(() => rmSync(base, { recursive: true, force: true }))

describe('grep skips secrets and never reads hard-linked or special files', () => {
  it('prints no secret, says what it left out and why, and still finds the rest', async () => {
    const result = await call('grep', { pattern: 'needle|ENVKEY|PEMBODY|RSABODY|OUTSIDE|ghp_|AccountKey|token', hidden: true })
    expect(result.isError).toBe(false)
    for (const secret of [ENV_KEY, PEM_BODY, RSA_BODY, OUTSIDE, TOKEN, ACCOUNT_KEY]) expect(result.forLlm).not.toContain(secret)
    expect(result.forLlm).toContain('src/plain.ts:1:const needle = 1')
    expect(result.forLlm).toContain('src/config.ts:2:export const token = "[secret redacted]"')
    const secretsNote = result.forLlm.split('\n').find((line) => line.includes('files that hold secrets were not searched'))
    expect(secretsNote).toBeDefined()
    for (const name of ['.env', 'certs/server.pem', 'keys/id_rsa', 'local.settings.json']) expect(secretsNote).toContain(name)
    expect(result.forLlm).toMatch(/1 hard-linked files were not searched .*notes-link\.txt/)
    expect(result.forLlm).toMatch(/1 pipes, sockets or devices were not opened/)
    expect(result.forLlm).toMatch(/1 secret values .* were replaced by \[secret redacted\]/)
  })

  it('reads a secret file named as its own path (the judgement asked about it) but never a hard link', async () => {
    expect((await call('grep', { pattern: 'needle', path: '.env' })).forLlm).toContain(ENV_KEY)
    const linked = await call('grep', { pattern: 'needle', path: 'notes-link.txt' })
    expect(linked.forLlm).not.toContain(OUTSIDE)
    expect(linked.forLlm).toMatch(/hard-linked/)
    const pipe = await call('grep', { pattern: 'needle', path: 'pipe.txt' })
    expect(pipe.isError).toBe(false)
    expect(pipe.display?.key).toBe('result.noMatches')
  })

  it('glob lists names and opens nothing', async () => {
    const result = await call('glob', { pattern: '*', hidden: true })
    const names = result.forLlm.split('\n')
    expect(names).toEqual(expect.arrayContaining(['.env', 'keys/id_rsa', 'certs/server.pem']))
    for (const secret of [ENV_KEY, PEM_BODY, RSA_BODY, OUTSIDE, TOKEN]) expect(result.forLlm).not.toContain(secret)
  })
})

describe('grep against a racer', () => {
  let racer: ChildProcess | undefined
  afterAll(() => racer?.kill('SIGKILL'))

  it('never prints a secret while a file and a folder are swapped for links out during the walk', async () => {
    const ws = join(base, 'raced')
    const secretDir = join(base, 'raced-outside')
    write(join(secretDir, 'a.txt'), `needle ${OUTSIDE}\n`)
    write(join(ws, 'data', 'a.txt'), 'needle plain\n')
    write(join(ws, 'file.txt'), 'needle plain\n')
    for (let i = 0; i < 40; i++) write(join(ws, 'data', `f${i}.txt`), 'needle filler\n')
    // A separate process swaps data/ for a link to the secret folder and file.txt for a link to the secret file, over and over.
    const script = `
      const fs = require('node:fs'); const path = require('node:path')
      const ws = ${JSON.stringify(ws)}, out = ${JSON.stringify(secretDir)}
      const data = path.join(ws, 'data'), real = path.join(ws, 'data.real'), file = path.join(ws, 'file.txt'), plain = path.join(ws, 'file.plain')
      fs.writeFileSync(plain, 'needle plain\\n')
      for (;;) {
        try { fs.renameSync(data, real); fs.symlinkSync(out, data) } catch {}
        try { fs.renameSync(file, file + '.old'); fs.symlinkSync(path.join(out, 'a.txt'), file) } catch {}
        try { fs.unlinkSync(data); fs.renameSync(real, data) } catch {}
        try { fs.unlinkSync(file); fs.renameSync(file + '.old', file) } catch {}
      }`
    racer = spawn(process.execPath, ['-e', script], { stdio: 'ignore' })
    let found = 0
    for (let i = 0; i < 25; i++) {
      const result = await call('grep', { pattern: 'needle' }, { ws })
      expect(result.forLlm).not.toContain(OUTSIDE)
      if (result.forLlm.includes('needle')) found++
    }
    racer.kill('SIGKILL')
    expect(found).toBeGreaterThan(0)
  }, 120_000)
})

describe('the pattern runs off the main thread', () => {
  let ws: string
  beforeAll(() => {
    ws = join(base, 'redos')
    write(join(ws, 'long.txt'), `${'a'.repeat(5_000)}!\n`)
  })

  it('Stop ends a catastrophic pattern within 1 s, and the main thread keeps running meanwhile', async () => {
    const controller = new AbortController()
    let ticks = 0
    const ticker = setInterval(() => ticks++, 20)
    const started = call('grep', { pattern: '(a+)+$', path: 'long.txt' }, { signal: controller.signal, ws })
    await new Promise((resolve) => setTimeout(resolve, 600))
    const stoppedAt = performance.now()
    controller.abort()
    const result = await started
    const tookMs = performance.now() - stoppedAt
    clearInterval(ticker)
    console.log(`grep (a+)+$ stopped ${tookMs.toFixed(0)} ms after Stop; main thread ticked ${ticks} times meanwhile`)
    expect(result.isError).toBe(true)
    expect(result.display?.key).toBe('result.stopped')
    expect(tookMs).toBeLessThan(1_000)
    expect(ticks).toBeGreaterThan(10)
  })

  it('the time limit ends it otherwise, with a clear result', async () => {
    const started = performance.now()
    const result = await call('grep', { pattern: '(a+)+$', path: 'long.txt' }, { ws, reg: registry(800) })
    const tookMs = performance.now() - started
    console.log(`grep (a+)+$ ended by an 800 ms time limit after ${tookMs.toFixed(0)} ms`)
    expect(result.isError).toBe(true)
    expect(result.display?.key).toBe('result.timeLimit')
    expect(result.forLlm).toMatch(/time limit/)
    expect(tookMs).toBeLessThan(3_000)
  })
})
