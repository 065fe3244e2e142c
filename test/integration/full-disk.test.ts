/**
 * A full disk ends the run as failed, not the process with a stack trace (issue 27; docs/cli.md,
 * "When the disk is full"): DESKCLAW_HOME on a small tmpfs filled up after the database exists,
 * a model that writes a lot, `deskclaw run --json` prints run_failed with the store's message,
 * one line on stderr, exit 1; after space is freed, no run is left "running".
 */
import { spawn } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { requireCapability } from '../helpers/capability'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { mountTmpfs, type TmpfsMount } from '../helpers/tmpfs'

requireBuiltCli()

let server: ScriptedServer | undefined
let tmpfs: TmpfsMount | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  tmpfs?.unmount()
  tmpfs = undefined
})

interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

async function deskclaw(home: string, args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { ...process.env, DESKCLAW_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  // A run that hangs instead of failing is a failure too: it is stopped after 20 s.
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(timer)
  return { code, stdout, stderr }
}

const runArgs = (url: string, workspace: string, json: boolean, prompt: string): string[] => [
  'run',
  ...(json ? ['--json'] : []),
  '--provider', 'openai-compatible', '--base-url', url, '--model', 'scripted-model',
  '--workspace', workspace, prompt
]

/** Fills the file system at `dir` up to all but `leaveBytes`, in one file. */
function fillUp(dir: string, leaveBytes: number): string {
  const filler = join(dir, 'filler')
  const chunk = Buffer.alloc(64 * 1024, 1)
  let written = 0
  try {
    for (;;) {
      writeFileSync(filler, chunk, { flag: 'a' })
      written += chunk.length
    }
  } catch {
    // Full: give back what should stay free.
  }
  rmSync(filler)
  writeFileSync(filler, Buffer.alloc(Math.max(0, written - leaveBytes), 1))
  return filler
}

function runningRuns(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  try {
    return db.prepare<[], number>(`SELECT count(*) FROM runs WHERE status = 'running'`).pluck().get() ?? 0
  } finally {
    db.close()
  }
}

/** A long answer: 50,000 deltas of 4 characters, each an event row: far more than the space left. */
const chatty: ScriptStep[] = [{ text: 'All good. '.repeat(20_000) }]

describe('deskclaw run on a full disk', () => {
  for (const json of [true, false]) {
    it(`ends the run as failed with one line${json ? ' and run_failed in the NDJSON' : ''}; nothing stays running`, async (context) => {
      const mount = mountTmpfs(8 * 1024 * 1024)
      if (!requireCapability('a tmpfs mount', typeof mount !== 'string', `${String(mount)}; run the tests as root on Linux`)) {
        context.skip()
        return
      }
      tmpfs = mount as TmpfsMount
      const home = join(tmpfs.dir, 'home')
      const workspace = join(tmpfs.dir, 'ws')
      server = await startScriptedOpenAI([{ text: 'Ready.' }, ...chatty])
      // The first run creates the database (and the workspace) while there is room.
      const first = await deskclaw(home, runArgs(server.url, workspace, false, 'hello'))
      expect(first.code).toBe(0)

      const filler = fillUp(tmpfs.dir, 512 * 1024)
      const result = await deskclaw(home, runArgs(server.url, workspace, json, 'write a lot'))
      console.info(`[full-disk] exit ${result.code}; stderr: ${result.stderr.trim().slice(0, 3000)}; stdout ends: ${result.stdout.slice(-600)}`)
      expect(result.code).toBe(1)
      expect(result.stderr).not.toMatch(/^\s+at /m)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(/^deskclaw: The disk holding DeskClaw's data is full/)
      if (json) {
        const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)
        const failed = events.find((event) => event.type === 'run_failed')
        expect(failed).toMatchObject({ error: { key: 'errors.store.diskFull', message: expect.stringMatching(/disk holding DeskClaw's data is full/) } })
        expect(events.at(-1)?.type).toBe('run_failed')
      }

      // Room again: the next start leaves no run "running" (recorded as failed, or recovered).
      rmSync(filler)
      const next = await deskclaw(home, runArgs(server.url, workspace, false, 'again'))
      expect(next.stderr).not.toMatch(/^\s+at /m)
      expect(runningRuns(join(home, 'deskclaw.db'))).toBe(0)
    }, 60_000)
  }
})
