/**
 * `notify` in the CLI (docs/tools.md, "Notifications"): the notice is one line on stderr, in the
 * human and the --json mode alike (stdout stays the answer, or NDJSON events only), without a question.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import { cliScratch, requireBuiltCli, runCli } from '../helpers/cli'

requireBuiltCli()

const scratch = cliScratch()

async function run(json: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  scratch.server = await startScriptedOpenAI([{ toolCalls: [{ name: 'notify', args: { title: '备份完成', body: 'All 12 files.\nNothing skipped.' } }] }, { text: 'Told you.' }])
  scratch.root = mkdtempSync(join(tmpdir(), 'deskclaw-notify-'))
  const args = ['run', ...(json ? ['--json'] : []), '--approve', 'deny', '--provider', 'openai-compatible', '--base-url', scratch.server.url]
  args.push('--model', 'scripted-model', '--workspace', join(scratch.root, 'ws'), 'back up and tell me')
  return runCli(args, { DESKCLAW_HOME: join(scratch.root, 'home') })
}

describe('notify in the CLI', () => {
  it('prints the notice as one line on stderr', async () => {
    const { code, stdout, stderr } = await run(false)
    expect(code).toBe(0)
    expect(stderr.split('\n')).toContain('🔔 备份完成 — All 12 files. ⏎ Nothing skipped.')
    expect(stdout).toContain('Told you.')
    expect(stdout).not.toContain('备份完成')
  })

  it('keeps stdout NDJSON in --json mode; the call ran without a question (--approve deny)', async () => {
    const { code, stdout, stderr } = await run(true)
    expect(code).toBe(0)
    expect(stderr).toContain('🔔 备份完成 — All 12 files.')
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)
    expect(events.some((event) => event.type === 'approval_requested')).toBe(false)
    expect(events.find((event) => event.type === 'tool_call_completed')).toMatchObject({ tool: 'notify', status: 'completed', isError: false })
  })
})
