import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, BridgeEvent, Notice } from '../../src/shared'
import { DeskclawApp, MISSED_AFTER_MS } from '../../src/main/app'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../helpers/temp-app'
import { TestClock } from '../helpers/test-clock'

const apps = scriptedApps()
// A weekday morning, local time: the cron expressions below are in this computer's time zone.
const MONDAY_0859 = new Date(2026, 10, 30, 8, 59, 30).getTime()
const MONDAY_0900 = new Date(2026, 10, 30, 9, 0, 0).getTime()
const TUESDAY_0900 = new Date(2026, 11, 1, 9, 0, 0).getTime()

function noticesOf(app: DeskclawApp): Notice[] {
  const notices: Notice[] = []
  app.events.subscribe((event: BridgeEvent) => {
    if (event.kind === 'notification') notices.push(event.notice)
  })
  return notices
}

describe('scheduled tasks (scripted model, test clock)', () => {
  it('fires at its time: a conversation of its own, a notification and audit entries', async () => {
    const clock = new TestClock(MONDAY_0859)
    const temp = await apps.setup([{ text: 'Three new issues since yesterday.' }], {}, { clock, runSchedules: true })
    const notices = noticesOf(temp.app)
    const task = temp.app.schedules.add({
      name: 'Morning summary',
      prompt: 'Summarise the new issues',
      workspace: temp.workspace,
      autonomy: 'supervised',
      schedule: { kind: 'cron', cron: '0 9 * * 1-5' }
    })
    expect(task.nextRunAt).toBe(MONDAY_0900)
    clock.advance(20_000) // 08:59:50: not yet
    expect(temp.app.schedules.list()[0]!.lastRun).toBeNull()
    clock.advance(10_000) // 09:00:00
    await temp.app.schedules.idle()

    const [after] = temp.app.schedules.list()
    expect(after!.lastRun).toMatchObject({ status: 'completed', at: MONDAY_0900, error: null })
    expect(after!.nextRunAt).toBe(TUESDAY_0900)
    const conversation = temp.app.store.getConversation(after!.lastRun!.conversationId!)
    expect(conversation?.conversation).toMatchObject({ title: 'Morning summary', workspace: temp.workspace })
    expect(conversation?.messages.map((m) => m.content)).toEqual(['Summarise the new issues', 'Three new issues since yesterday.'])
    expect(notices).toEqual([
      expect.objectContaining({ reason: 'run_finished', conversationId: after!.lastRun!.conversationId, runId: after!.lastRun!.runId, text: expect.objectContaining({ key: 'notices.schedule.run_finished' }) })
    ])
    const audit = temp.app.store.recentAudit(50).filter((row) => row.kind.startsWith('schedule_'))
    expect(audit.map((row) => row.kind)).toEqual(['schedule_added', 'schedule_run_started', 'schedule_run_ended'])
    expect(audit[2]).toMatchObject({ runId: after!.lastRun!.runId, data: expect.objectContaining({ taskId: task.id, status: 'completed' }) })
    expect(temp.app.store.verifyAuditChain().ok).toBe(true)
  })

  it('a one-shot task runs once, then is off', async () => {
    const clock = new TestClock(MONDAY_0859)
    const temp = await apps.setup([{ text: 'Reminder done.' }], {}, { clock, runSchedules: true })
    temp.app.schedules.add({ name: 'Once', prompt: 'Remind me', workspace: temp.workspace, autonomy: 'readonly', schedule: { kind: 'once', at: MONDAY_0900 } })
    clock.advance(60_000)
    await temp.app.schedules.idle()
    clock.advance(86_400_000)
    await temp.app.schedules.idle()
    const [task] = temp.app.schedules.list()
    expect(task).toMatchObject({ enabled: false, nextRunAt: null, lastRun: expect.objectContaining({ status: 'completed' }) })
    expect(apps.server().requests).toHaveLength(1)
  })

  it('refuses a cron expression that is not one, saying why', async () => {
    const temp = await apps.setup([], {}, { clock: new TestClock(MONDAY_0859), runSchedules: true })
    expect(() =>
      temp.app.schedules.add({ name: 'x', prompt: 'y', workspace: temp.workspace, autonomy: 'readonly', schedule: { kind: 'cron', cron: '61 9 * * *' } })
    ).toThrow(/not a cron expression.*minute/)
    expect(temp.app.schedules.list()).toEqual([])
  })

  it('an unattended approval waits, notifies, and times out to deny', async () => {
    const clock = new TestClock(MONDAY_0859)
    const temp = await apps.setup(
      [{ toolCalls: [{ name: 'file_write', args: { path: 'report.txt', content: 'hello' } }] }, { text: 'I could not write the report.' }],
      { approvalTimeoutMs: 1000 },
      { clock, runSchedules: true }
    )
    const notices = noticesOf(temp.app)
    temp.app.schedules.add({ name: 'Write report', prompt: 'Write report.txt', workspace: temp.workspace, autonomy: 'supervised', schedule: { kind: 'cron', cron: '0 9 * * *' } })
    clock.advance(30_000)
    await temp.app.schedules.idle()
    const events = temp.events
    const requested = events.find((e): e is Extract<AgentEvent, { type: 'approval_requested' }> => e.type === 'approval_requested')
    expect(requested).toMatchObject({ tool: 'file_write' })
    expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ approvalId: requested!.approvalId, answer: 'deny', by: 'timeout' })
    expect(existsSync(join(temp.workspace, 'report.txt'))).toBe(false)
    expect(notices.map((n) => n.reason)).toEqual(['approval_waiting', 'run_finished'])
    expect(notices[0]).toMatchObject({ runId: requested!.runId, body: expect.stringContaining('Write report') })
    const audit = temp.app.store.recentAudit(50).map((row) => row.kind)
    expect(audit).toEqual(expect.arrayContaining(['schedule_run_started', 'schedule_run_ended']))
  })
})

describe('missed runs (the app was closed at the time)', () => {
  let server: ScriptedServer | undefined
  const roots: string[] = []
  afterEach(async () => {
    await server?.close()
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
  })

  async function closedOverNight(policy: 'catch_up' | 'skip') {
    server = await startScriptedOpenAI([{ text: 'Caught up.' }])
    const root = mkdtempSync(join(tmpdir(), 'deskclaw-sched-'))
    roots.push(root)
    const workspace = join(root, 'workspace')
    mkdirSync(workspace)
    const config = (clock: TestClock) => ({
      dataDir: join(root, 'data'),
      clock,
      runSchedules: true,
      env: {},
      overrides: { provider: 'openai-compatible' as const, baseUrl: server!.url, model: 'scripted-model', workspace, scheduleMissedRuns: policy }
    })
    const first = DeskclawApp.create(config(new TestClock(MONDAY_0859)))
    const task = first.schedules.add({ name: 'Daily', prompt: 'Do the daily thing', workspace, autonomy: 'readonly', schedule: { kind: 'cron', cron: '0 9 * * *' } })
    await first.close()
    // Started again at 11:00: the 09:00 run was missed.
    const later = new TestClock(MONDAY_0900 + 2 * 3_600_000)
    const second = DeskclawApp.create(config(later))
    await new Promise((resolve) => setImmediate(resolve)) // services start
    await second.schedules.idle()
    const after = second.schedules.list()[0]!
    const audit = second.store.recentAudit(50).filter((row) => row.kind.startsWith('schedule_'))
    await second.close()
    return { task, after, audit, requests: server.requests.length }
  }

  it('catch_up runs a missed task once at start', async () => {
    const { after, audit, requests } = await closedOverNight('catch_up')
    expect(requests).toBe(1)
    expect(after.lastRun).toMatchObject({ status: 'completed' })
    expect(after.nextRunAt).toBe(TUESDAY_0900)
    expect(audit.find((row) => row.kind === 'schedule_run_started')?.data).toMatchObject({ reason: 'missed' })
  })

  it('skip leaves a missed task for its next time, and audits the skip', async () => {
    const { after, audit, requests } = await closedOverNight('skip')
    expect(requests).toBe(0)
    expect(after.lastRun).toBeNull()
    expect(after.nextRunAt).toBe(TUESDAY_0900)
    expect(audit.map((row) => row.kind)).toEqual(['schedule_added', 'schedule_run_skipped'])
    expect(audit[1]!.data).toMatchObject({ missedAt: MONDAY_0900 })
    expect(MISSED_AFTER_MS).toBeLessThan(2 * 3_600_000)
  })
})

describe('a process that only manages tasks', () => {
  it('runs nothing at its time (one-shot CLI commands), but runs a task when asked', async () => {
    const clock = new TestClock(MONDAY_0859)
    const temp = await apps.setup([{ text: 'Ran on request.' }], {}, { clock })
    const task = temp.app.schedules.add({ name: 'Daily', prompt: 'Go', workspace: temp.workspace, autonomy: 'readonly', schedule: { kind: 'cron', cron: '0 9 * * *' } })
    expect(clock.pending()).toBe(0)
    clock.advance(3_600_000)
    await temp.app.schedules.idle()
    expect(apps.server().requests).toHaveLength(0)
    const started = temp.app.schedules.runNow(task.id)
    expect(await started.done).toBe('completed')
    expect(temp.app.schedules.list()[0]!.lastRun).toMatchObject({ status: 'completed', conversationId: started.conversationId })
  })
})

describe('the schedule tool', () => {
  const call = (args: Record<string, unknown>) => [{ toolCalls: [{ name: 'schedule', args }] }, { text: 'Done.' }]
  const weekday = { name: '晨报', prompt: 'Summarise the new issues', cron: '0 9 * * 1-5' }

  it('asks even in full autonomy, showing the next three times; allowed, the task is saved in this workspace', async () => {
    const temp = await apps.setup(call(weekday), { autonomy: 'full' })
    temp.setApprover('allow_once')
    const { events, outcome } = await runPrompt(temp, 'every weekday morning, summarise the new issues')
    expect(outcome.status).toBe('completed')
    const asked = events.find((e): e is Extract<AgentEvent, { type: 'approval_requested' }> => e.type === 'approval_requested')
    expect(asked).toBeDefined()
    expect(asked!.assessment?.findings.map((f) => f.rule)).toContain('tool.asks-always')
    const next = asked!.preview.fields.find((f) => f.label.key === 'next')!.value.split('\n')
    expect(next).toHaveLength(3)
    expect(next.every((line) => / 09:00$/.test(line))).toBe(true)
    const tasks = temp.app.schedules.list()
    expect(tasks).toEqual([expect.objectContaining({ name: '晨报', workspace: temp.workspace, autonomy: 'supervised', schedule: { kind: 'cron', cron: '0 9 * * 1-5' }, enabled: true })])
    expect(events.find((e) => e.type === 'tool_call_completed')).toMatchObject({ tool: 'schedule', isError: false })
  })

  it('denied, nothing is saved', async () => {
    const temp = await apps.setup(call(weekday), { autonomy: 'full' })
    temp.setApprover('deny', 'not now')
    await runPrompt(temp, 'schedule it')
    expect(temp.app.schedules.list()).toEqual([])
  })

  it('a bad cron expression is an error the model sees, with no question', async () => {
    const temp = await apps.setup(call({ ...weekday, cron: '0 9 * *' }), { autonomy: 'full' })
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'schedule it')
    expect(events.some((e) => e.type === 'approval_requested')).toBe(false)
    expect(events.find((e) => e.type === 'tool_call_completed')).toMatchObject({ tool: 'schedule', isError: true })
    expect(JSON.stringify(apps.server().requests[1]!.body)).toContain('not a cron expression')
    expect(temp.app.schedules.list()).toEqual([])
  })
})
