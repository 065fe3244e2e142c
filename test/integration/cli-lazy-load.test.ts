/**
 * `deskclaw` loads what the command needs (issue 28, item 4; docs/benchmarks.md, "CLI start-up"):
 * `--help` loads no package at all, `risk` the analyzer, the store and zod only — never the AI SDK,
 * a provider, dockerode, execa, Playwright or the MCP SDK. Spawns the built CLI with a preload that
 * records every file require() loaded, so an eager import (or a bundler that inlines the
 * commands' `import()`s) fails here.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliPath, requireBuiltCli } from '../helpers/cli'

requireBuiltCli()

const HEAVY = ['ai', '@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/openai-compatible', 'dockerode', 'playwright-core', '@modelcontextprotocol/sdk', 'linkedom', 'dbus-next']

interface Loaded {
  /** Packages from node_modules, by name. */
  packages: string[]
  /** Files of the build (out/main/…), relative to out/main. */
  chunks: string[]
  stdout: string
}

function loadedBy(args: string[]): Loaded {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-lazy-'))
  const record = join(root, 'loaded.json')
  const result = spawnSync(process.execPath, ['-r', join(process.cwd(), 'test/fixtures/record-loaded-modules.cjs'), cliPath, ...args], {
    cwd: root,
    env: { ...process.env, DESKCLAW_HOME: join(root, 'home'), DESKCLAW_RECORD_LOADED: record },
    encoding: 'utf8',
    timeout: 60_000
  })
  expect(result.status, result.stderr).toBe(0)
  const files = JSON.parse(readFileSync(record, 'utf8')) as string[]
  const packages = new Set(files.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]).filter((name): name is string => Boolean(name)))
  const chunks = files.map((file) => /\/out\/main\/(.+)$/.exec(file)?.[1]).filter((name): name is string => Boolean(name))
  return { packages: [...packages], chunks, stdout: result.stdout }
}

/** The execa chunk is bundled (ESM-only package), so it shows as a chunk, not a package. */
const isExecaChunk = (chunk: string): boolean => /(^|\/)execa-[^/]*\.js$/.test(chunk)

describe('deskclaw loads only what the command needs', () => {
  it('--help loads no package and only the entry with its small shared chunks', () => {
    const loaded = loadedBy(['--help'])
    expect(loaded.stdout).toContain('Usage:')
    expect(loaded.packages).toEqual([])
    expect(loaded.chunks).toContain('cli.js')
    // The entry and the pieces it needs for errors and --version; no command's chunk.
    expect(loaded.chunks.length).toBeLessThanOrEqual(4)
    expect(loaded.chunks.filter((chunk) => /chunks\/(run|risk|web|deskclaw-app|doctor|mcp)-/.test(chunk))).toEqual([])
  })

  it('risk loads the analyzer, the store and zod: no AI SDK, provider, Docker client, execa or browser', () => {
    const loaded = loadedBy(['risk', 'git status'])
    expect(loaded.stdout).toContain('ALLOW  git status')
    for (const heavy of HEAVY) expect(loaded.packages, heavy).not.toContain(heavy)
    expect(loaded.chunks.filter(isExecaChunk)).toEqual([])
    // What a verdict needs, and nothing else (the store reads rules saved by "always allow").
    const allowed = new Set(['web-tree-sitter', 'better-sqlite3', 'bindings', 'file-uri-to-path', 'zod'])
    expect(loaded.packages.filter((name) => !allowed.has(name))).toEqual([])
  })
})
