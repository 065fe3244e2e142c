/**
 * `deskclaw` loads what the command needs (issue 28, item 4; docs/benchmarks.md, "CLI start-up"):
 * `--help` loads no package at all, `risk` the analyzer and the store only — never the AI SDK,
 * a provider, dockerode, execa, Playwright or the MCP SDK; `run` prints its first event before the
 * AI SDK loads, and against an OpenAI-compatible server never loads it. Spawns the built CLI with a
 * preload that records every file require() loaded, so an eager import (or a bundler that inlines
 * the commands' `import()`s) fails here.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { cliPath, requireBuiltCli } from '../helpers/cli'

requireBuiltCli()

const HEAVY = ['ai', '@ai-sdk/openai', '@ai-sdk/anthropic', 'dockerode', 'playwright-core', '@modelcontextprotocol/sdk', 'linkedom', 'dbus-next']
/** The AI SDK core and its provider packages. */
const AI_SDK = ['ai', '@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/provider-utils', '@ai-sdk/gateway']

interface Loaded {
  /** Packages from node_modules, by name. */
  packages: string[]
  /** Packages loaded when the process first wrote to stdout. */
  packagesAtFirstOutput: string[]
  /** Files of the build (out/main/…), relative to out/main. */
  chunks: string[]
  stdout: string
}

/** Runs the built CLI under the recording preload (asynchronously: a scripted server in this process must answer it). */
async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Loaded> {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-lazy-'))
  const record = join(root, 'loaded.json')
  const child = spawn(process.execPath, ['-r', join(process.cwd(), 'test/fixtures/record-loaded-modules.cjs'), cliPath, ...args], {
    cwd: root,
    env: { ...process.env, DESKCLAW_HOME: join(root, 'home'), DESKCLAW_RECORD_LOADED: record, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const result = { stdout: '', stderr: '' }
  child.stdout.on('data', (chunk: Buffer) => (result.stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (result.stderr += chunk.toString()))
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(status, result.stderr).toBe(0)
  const recorded = JSON.parse(readFileSync(record, 'utf8')) as { atExit: string[]; atFirstOutput: string[] | null }
  const packagesOf = (files: string[]): string[] => [
    ...new Set(files.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]).filter((name): name is string => Boolean(name)))
  ]
  const chunks = recorded.atExit.map((file) => /\/out\/main\/(.+)$/.exec(file)?.[1]).filter((name): name is string => Boolean(name))
  return { packages: packagesOf(recorded.atExit), packagesAtFirstOutput: packagesOf(recorded.atFirstOutput ?? []), chunks, stdout: result.stdout }
}

/** `deskclaw run --json` against a scripted server of that wire format, to its end. */
function runLoads(provider: 'openai-compatible' | 'anthropic', server: ScriptedServer): Promise<Loaded> {
  return loadedBy(
    ['run', '--json', '--provider', provider, '--base-url', server.url, '--model', 'scripted-model', '--api-key-env', 'LAZY_TEST_KEY', 'hi'],
    { LAZY_TEST_KEY: 'test-key' }
  )
}

/** The execa chunk is bundled (ESM-only package), so it shows as a chunk, not a package. */
const isExecaChunk = (chunk: string): boolean => /(^|\/)execa-[^/]*\.js$/.test(chunk)

describe('deskclaw loads only what the command needs', () => {
  it('--help loads no package and only the entry with its small shared chunks', async () => {
    const loaded = await loadedBy(['--help'])
    expect(loaded.stdout).toContain('Usage:')
    expect(loaded.packages).toEqual([])
    expect(loaded.chunks).toContain('cli.js')
    // The entry and the pieces it needs for errors and --version; no command's chunk.
    expect(loaded.chunks.length).toBeLessThanOrEqual(4)
    expect(loaded.chunks.filter((chunk) => /chunks\/(run|risk|web|deskclaw-app|doctor|mcp)-/.test(chunk))).toEqual([])
  })

  it('risk loads the analyzer, the store and zod: no AI SDK, provider, Docker client, execa or browser', async () => {
    const loaded = await loadedBy(['risk', 'git status'])
    expect(loaded.stdout).toContain('ALLOW  git status')
    for (const heavy of HEAVY) expect(loaded.packages, heavy).not.toContain(heavy)
    expect(loaded.chunks.filter(isExecaChunk)).toEqual([])
    // What a verdict needs, and nothing else (the store reads rules saved by "always allow").
    // zod is bundled into the build (electron.vite.config.ts): rollup drops its ~60 locales.
    const allowed = new Set(['web-tree-sitter', 'better-sqlite3', 'bindings', 'file-uri-to-path'])
    expect(loaded.packages.filter((name) => !allowed.has(name))).toEqual([])
  })

  it('run prints its first event before the AI SDK loads; against an OpenAI-compatible server it never loads', async () => {
    const openai = await startScriptedOpenAI([{ text: 'Hello.' }])
    const anthropic = await startScriptedAnthropic([{ text: 'Hello.' }])
    try {
      const wire = await runLoads('openai-compatible', openai)
      expect(JSON.parse(wire.stdout.split('\n')[0]!)).toMatchObject({ type: 'run_started' })
      expect(wire.stdout).toContain('"run_completed"')
      for (const name of AI_SDK) expect(wire.packages, name).not.toContain(name)
      // The build's own zod (bundled, without its locales); node_modules' zod only comes with the AI or MCP SDK.
      expect(wire.packages).not.toContain('zod')

      const sdk = await runLoads('anthropic', anthropic)
      expect(JSON.parse(sdk.stdout.split('\n')[0]!)).toMatchObject({ type: 'run_started' })
      expect(sdk.stdout).toContain('"run_completed"')
      expect(sdk.packages).toEqual(expect.arrayContaining(['ai', '@ai-sdk/anthropic'])) // loaded by the model call…
      for (const name of AI_SDK) expect(sdk.packagesAtFirstOutput, name).not.toContain(name) // …after the first event
    } finally {
      await openai.close()
      await anthropic.close()
    }
  })
})
