/**
 * `deskclaw run --json --approve allow|deny` answers each question inside its own
 * `approval_requested` event; the NDJSON must still print every question before its answer
 * (docs/cli.md, "NDJSON order"). Two approvals per run, both modes.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep } from '../fixtures/scripted-types'
import { cliPath, cliScratch, requireBuiltCli } from '../helpers/cli'

requireBuiltCli()

const scratch = cliScratch()

const twoWrites: ScriptStep[] = [
  {
    text: 'Writing two files.',
    toolCalls: [
      { name: 'file_write', args: { path: 'a.txt', content: 'a' } },
      { name: 'file_write', args: { path: 'b.txt', content: 'b' } }
    ]
  },
  { text: 'Done.' }
]

async function runJson(approve: 'allow' | 'deny'): Promise<AgentEvent[]> {
  scratch.server = await startScriptedOpenAI(twoWrites)
  scratch.root = mkdtempSync(join(tmpdir(), 'deskclaw-order-'))
  const args = ['run', '--json', '--approve', approve, '--provider', 'openai-compatible', '--base-url', scratch.server.url]
  args.push('--model', 'scripted-model', '--workspace', join(scratch.root, 'ws'), 'write two files')
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { ...process.env, DESKCLAW_HOME: join(scratch.root, 'home') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(code).toBe(0)
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)
}

/** Line numbers of each approval's question and answer. */
function approvalLines(events: AgentEvent[]): Map<string, { requested: number; resolved: number }> {
  const lines = new Map<string, { requested: number; resolved: number }>()
  events.forEach((event, line) => {
    if (event.type !== 'approval_requested' && event.type !== 'approval_resolved') return
    const entry = lines.get(event.approvalId) ?? { requested: -1, resolved: -1 }
    entry[event.type === 'approval_requested' ? 'requested' : 'resolved'] = line
    lines.set(event.approvalId, entry)
  })
  return lines
}

describe('deskclaw run --json: approval_requested comes before approval_resolved', () => {
  for (const approve of ['allow', 'deny'] as const) {
    it(`--approve ${approve}`, async () => {
      const events = await runJson(approve)
      const lines = approvalLines(events)
      expect(lines.size).toBe(2)
      for (const [approvalId, { requested, resolved }] of lines) {
        expect(requested, `${approvalId} was asked`).toBeGreaterThanOrEqual(0)
        expect(resolved, `${approvalId} was answered after it was asked`).toBeGreaterThan(requested)
      }
    })
  }
})
