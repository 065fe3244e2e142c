import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { NativeRuntime } from '../../../src/main/runtime'
import { createFileTools, createShellTools, ToolRegistry, type ToolContext } from '../../../src/main/tools'

const registry = new ToolRegistry([createFileTools(), createShellTools({ runtime: new NativeRuntime() })])
let workspace: string
let output: string[]

function context(): ToolContext {
  return {
    workspace,
    conversationId: 'conv_test',
    runId: 'run_test',
    callId: 'call_test',
    signal: new AbortController().signal,
    onOutput: (_stream, chunk) => output.push(chunk)
  }
}

async function call(tool: string, args: unknown) {
  const checked = registry.checkArgs(tool, args)
  if (!checked.ok) return { forLlm: checked.error, isError: true }
  return registry.execute(tool, checked.args, context())
}

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-tools-')))
  output = []
})

describe('built-in tools', () => {
  it('declares every tool to the model with a JSON schema', () => {
    const declared = registry.toModelTools()
    expect(declared.map((tool) => tool.name).sort()).toEqual(['file_edit', 'file_list', 'file_read', 'file_write', 'shell'])
  })

  it('file_write creates folders and file_read numbers lines and pages', async () => {
    expect(await call('file_write', { path: 'a/b.txt', content: 'one\ntwo\nthree\n' })).toMatchObject({ isError: false })
    expect(readFileSync(join(workspace, 'a/b.txt'), 'utf8')).toBe('one\ntwo\nthree\n')
    const page = await call('file_read', { path: 'a/b.txt', offset: 2, limit: 1 })
    expect(page.forLlm).toBe('2\ttwo\n[lines 2-2 of 3; read on with offset 3]')
    expect((await call('file_read', { path: 'a/b.txt', offset: 9 })).forLlm).toMatch(/past the end/)
  })

  it('file_read refuses binaries, folders and missing files clearly', async () => {
    writeFileSync(join(workspace, 'bin.dat'), Buffer.from([1, 0, 2]))
    expect((await call('file_read', { path: 'bin.dat' })).forLlm).toMatch(/binary/)
    expect((await call('file_read', { path: '.' })).forLlm).toMatch(/is a folder/)
    expect((await call('file_read', { path: 'nope.txt' })).forLlm).toMatch(/File not found: nope.txt/)
  })

  it('file_edit replaces exactly one occurrence', async () => {
    writeFileSync(join(workspace, 'e.txt'), 'alpha\nbeta\nbeta\n')
    expect((await call('file_edit', { path: 'e.txt', old: 'gamma', new: 'x' })).forLlm).toMatch(/not found/)
    expect((await call('file_edit', { path: 'e.txt', old: 'beta', new: 'x' })).forLlm).toMatch(/more than once/)
    const done = await call('file_edit', { path: 'e.txt', old: 'alpha', new: 'ALPHA' })
    expect(done).toMatchObject({ isError: false, forLlm: 'Edited e.txt at line 1.' })
    expect(readFileSync(join(workspace, 'e.txt'), 'utf8')).toBe('ALPHA\nbeta\nbeta\n')
  })

  it('file_list lists sorted, folders marked', async () => {
    writeFileSync(join(workspace, 'z.txt'), '')
    await call('file_write', { path: 'dir/x', content: '' })
    expect((await call('file_list', {})).forLlm).toBe('dir/\nz.txt')
    expect((await call('file_list', { path: 'z.txt' })).forLlm).toMatch(/is a file/)
  })

  it('shell reports exit codes, streams output and scrubs secrets from the environment', async () => {
    process.env.DESKCLAW_TEST_API_KEY = 'sk-should-not-leak'
    const result = await call('shell', { command: 'echo out; echo err >&2; echo "key=${DESKCLAW_TEST_API_KEY:-none}"; exit 3' })
    delete process.env.DESKCLAW_TEST_API_KEY
    expect(result.isError).toBe(true)
    expect(result.forLlm).toMatch(/^exit code 3\nstdout:\nout\nkey=none\n\nstderr:\nerr$/)
    expect(output.join('')).toContain('out')
  })

  it('shell stops a command at its timeout, children included', async () => {
    const started = Date.now()
    const result = await call('shell', { command: 'sleep 30 & sleep 30', timeout: 1 })
    expect(result.isError).toBe(true)
    expect(result.forLlm).toMatch(/timed out after 1 s/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('rejects arguments that fail the schema with a readable message', () => {
    const checked = registry.checkArgs('shell', { command: '' })
    expect(checked.ok).toBe(false)
    expect(!checked.ok && checked.error).toMatch(/Invalid arguments for shell:[\s\S]*command/)
  })
})
