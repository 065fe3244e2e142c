import { execFileSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScriptStep } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps, type TempApp } from '../helpers/temp-app'
import type { AgentEvent, AgentEventOf } from '../../src/shared'

/*
 * The git tool end to end (docs/tools.md, "git"): a real app, a real repository, a scripted model.
 * Reads run without a question in supervised mode, writes ask; a repository whose config runs
 * programs makes even a read ask, as the same command line in the shell tool would.
 */
const { setup } = scriptedApps()
const git = (subcommand: string, ...args: string[]): ScriptStep => ({ toolCalls: [{ name: 'git', args: { subcommand, args } }] })
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is AgentEventOf<T> => e.type === type)

function initRepository(app: TempApp) {
  const run = (...args: string[]) => execFileSync('git', args, { cwd: app.workspace, encoding: 'utf8' })
  run('init', '-q', '-b', 'main')
  run('config', 'user.name', 'Test')
  run('config', 'user.email', 'test@example.com')
  writeFileSync(join(app.workspace, 'a.txt'), 'one\n')
  run('add', 'a.txt')
  run('commit', '-q', '-m', 'first commit')
  writeFileSync(join(app.workspace, 'a.txt'), 'one\ntwo\n')
  return run
}

describe('the git tool', () => {
  it('runs reads without asking in supervised mode', async () => {
    const app = await setup([git('status', '--short'), git('log', '--oneline', '-n', '5'), git('diff'), git('branch', '--list'), git('blame', 'a.txt'), { text: 'read' }], {
      runtime: 'native',
      autonomy: 'supervised'
    })
    initRepository(app)
    app.setApprover('deny', 'no question was expected')
    const { events } = await runPrompt(app, 'look at the repository')
    expect(of(events, 'approval_requested')).toHaveLength(0)
    const done = of(events, 'tool_call_completed')
    expect(done.map((e) => [e.status, e.isError])).toEqual(Array(5).fill(['completed', false]))
    expect(done[0]!.output).toBe(' M a.txt')
    expect(done[1]!.output).toMatch(/^[0-9a-f]{7,} first commit$/)
    expect(done[2]!.output).toContain('+two')
    expect(done[3]!.output).toBe('* main')
    expect(done[4]!.output).toMatch(/\(Test .*\) one/)
  })

  it('asks before add and commit, and runs them once allowed', async () => {
    const app = await setup([git('add', 'a.txt'), git('commit', '-m', "Add line two, it's needed"), { text: 'committed' }], { runtime: 'native', autonomy: 'supervised' })
    const run = initRepository(app)
    app.setApprover('allow_once')
    const { events } = await runPrompt(app, 'commit it')
    const questions = of(events, 'approval_requested')
    expect(questions.map((q) => q.tool)).toEqual(['git', 'git'])
    expect(of(events, 'tool_call_completed').map((e) => e.status)).toEqual(['completed', 'completed'])
    expect(run('log', '--format=%s')).toBe("Add line two, it's needed\nfirst commit\n")
  })

  it('a write denied does not run', async () => {
    const app = await setup([git('stash'), { text: 'ok' }], { runtime: 'native', autonomy: 'supervised' })
    const run = initRepository(app)
    app.setApprover('deny', 'keep my changes')
    const { events } = await runPrompt(app, 'stash')
    expect(of(events, 'approval_requested')).toHaveLength(1)
    expect(of(events, 'tool_call_completed')[0]).toMatchObject({ status: 'denied' })
    expect(run('status', '--short')).toBe(' M a.txt\n')
  })

  it('a repository whose config runs a program makes even status ask', async () => {
    const app = await setup([git('status'), { text: 'ok' }], { runtime: 'native', autonomy: 'supervised' })
    const run = initRepository(app)
    run('config', 'core.fsmonitor', 'touch fsmonitor-ran')
    app.setApprover('deny', 'suspicious')
    const { events } = await runPrompt(app, 'status')
    const question = of(events, 'approval_requested')
    expect(question).toHaveLength(1)
    expect(JSON.stringify(question[0]!.assessment.findings)).toMatch(/config/i)
    expect(existsSync(join(app.workspace, 'fsmonitor-ran'))).toBe(false)
  })
})
