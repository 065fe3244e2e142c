/** `deskclaw schedule` (docs/cli.md): add, list, run-now and remove, as a user runs them, against the scripted model. */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScheduledTask } from '../../src/shared'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import { cliScratch, requireBuiltCli, runCli } from '../helpers/cli'

requireBuiltCli()

const scratch = cliScratch()

const cli = (args: string[], env: NodeJS.ProcessEnv) => runCli(['schedule', ...args], env)

describe('deskclaw schedule', () => {
  it('adds, lists, runs now and removes a task', async () => {
    scratch.server = await startScriptedOpenAI([{ text: '日报已生成。' }])
    scratch.root = mkdtempSync(join(tmpdir(), 'deskclaw-schedule-'))
    const workspace = join(scratch.root, 'ws')
    mkdirSync(workspace)
    const env = { DESKCLAW_HOME: join(scratch.root, 'home'), DESKCLAW_PROVIDER: 'openai-compatible', DESKCLAW_BASE_URL: scratch.server.url, DESKCLAW_MODEL: 'scripted-model' }

    const added = await cli(['add', '--name', '日报', '--prompt', 'Write the daily report', '--cron', '0 9 * * 1-5', '--workspace', workspace, '--autonomy', 'readonly', '--json'], env)
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    const task = JSON.parse(added.stdout) as ScheduledTask
    expect(task).toMatchObject({ name: '日报', schedule: { kind: 'cron', cron: '0 9 * * 1-5' }, autonomy: 'readonly', workspace, enabled: true, lastRun: null })
    expect(new Date(task.nextRunAt!).getHours()).toBe(9)

    // Listing in a one-shot process runs nothing, even if a time came.
    const listed = await cli(['list'], env)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`${task.id}  日报 — cron "0 9 * * 1-5", readonly, in ${workspace}`)
    expect(listed.stdout).toContain('never run')
    expect(scratch.server.requests).toHaveLength(0)

    const ran = await cli(['run-now', task.id, '--approve', 'deny'], env)
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain('日报已生成。')
    expect(ran.stderr).toMatch(/scheduled run completed; conversation conv_/)
    const [after] = JSON.parse((await cli(['list', '--json'], env)).stdout) as ScheduledTask[]
    expect(after!.lastRun).toMatchObject({ status: 'completed', conversationId: expect.stringMatching(/^conv_/) })

    expect((await cli(['remove', task.id], env)).code).toBe(0)
    expect(JSON.parse((await cli(['list', '--json'], env)).stdout)).toEqual([])
  })

  it('refuses a bad cron expression and an unknown task in one line', async () => {
    scratch.root = mkdtempSync(join(tmpdir(), 'deskclaw-schedule-'))
    const env = { DESKCLAW_HOME: join(scratch.root, 'home') }
    const bad = await cli(['add', '--name', 'x', '--prompt', 'y', '--cron', '0 25 * * *'], env)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^deskclaw: "0 25 \* \* \*" is not a cron expression: .*hour.*\n$/)
    const usage = await cli(['add', '--name', 'x', '--prompt', 'y'], env)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('needs one of --cron EXPR and --at TIME')
    const missing = await cli(['remove', 'task_nope'], env)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe('deskclaw: no scheduled task task_nope\n')
  })
})
