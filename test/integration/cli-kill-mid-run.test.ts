/**
 * Nothing shown is ever lost (docs/architecture.md, "Store"): events are committed in groups, and
 * `deskclaw run --json` prints an event only after the transaction holding it committed. So a
 * `kill -9` in the middle of a run leaves every event it printed in the SQLite file.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import { cliPath, cliScratch, requireBuiltCli } from '../helpers/cli'

requireBuiltCli()

const scratch = cliScratch()

/**
 * A wide group-commit tick: events wait up to this long in memory, so a front door that printed
 * before the commit would be caught by the kill almost every time.
 */
const TICK_MS = 300

/** Printed lines wanted before the kill: past the tool call, well into the slow answer. */
const LINES_BEFORE_KILL = 60

describe('deskclaw run killed with SIGKILL mid-run', () => {
  it('leaves every event it printed in the store', async () => {
    scratch.server = await startScriptedOpenAI([
      { toolCalls: [{ name: 'file_list', args: {} }] },
      // ~1,500 four-character deltas, 3 ms apart: the run is still streaming when it is killed.
      { text: 'Streaming slowly. '.repeat(330), chunkDelayMs: 3 }
    ])
    scratch.root = mkdtempSync(join(tmpdir(), 'deskclaw-kill-'))
    const home = join(scratch.root, 'home')
    const child = spawn(
      process.execPath,
      [cliPath, 'run', '--json', '--provider', 'openai-compatible', '--base-url', scratch.server.url, '--model', 'scripted-model', '--workspace', join(scratch.root, 'ws'), 'list, then write a lot'],
      { env: { ...process.env, DESKCLAW_HOME: home, DESKCLAW_STORE_TICK_MS: String(TICK_MS) }, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${stdout.split('\n').length - 1} lines in 30 s; stderr: ${stderr}`)), 30_000)
      child.stdout.on('data', (chunk) => {
        stdout += chunk
        if (stdout.split('\n').length - 1 >= LINES_BEFORE_KILL) {
          clearTimeout(timer)
          child.kill('SIGKILL')
          resolve()
        }
      })
      child.on('close', () => {
        clearTimeout(timer)
        reject(new Error(`the CLI ended before it was killed; stderr: ${stderr}`))
      })
    })
    expect(await exited).toBe('SIGKILL')

    // Whole lines only: the kill may cut the last one.
    const printed = stdout.split('\n').slice(0, -1)
    const events = printed.map((line) => JSON.parse(line) as AgentEvent)
    expect(events.length).toBeGreaterThanOrEqual(LINES_BEFORE_KILL)
    expect(events.map((event) => event.type)).toContain('tool_call_completed')
    expect(events.at(-1)?.type).toBe('text_delta')
    expect(events.some((event) => event.type === 'run_completed')).toBe(false)

    const db = new Database(join(home, 'deskclaw.db'), { readonly: true, fileMustExist: true })
    try {
      const rows = db.prepare<[string], string>('SELECT data FROM events WHERE run_id = ?').pluck().all(events[0]!.runId)
      const stored = new Set(rows)
      // The store holds the very text that was printed (both are JSON.stringify of one event).
      const missing = printed.filter((line) => !stored.has(line))
      expect(missing).toEqual([])
      // And the answer's deltas up to the kill are all there for recovery to rebuild the message from
      // (counted as rows: deltas of one millisecond with the same text are the same JSON).
      expect(rows.length).toBeGreaterThanOrEqual(printed.length)
    } finally {
      db.close()
    }
  }, 60_000)
})
