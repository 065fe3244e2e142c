import { describe, expect, it } from 'vitest'
import type { BridgeEvent, Notice } from '../../src/shared'
import { Notifications } from '../../src/main/notifications'
import { runPrompt, scriptedApps } from '../helpers/temp-app'

const apps = scriptedApps()

describe('notify (scripted model)', () => {
  it('runs without a question and reaches the front doors as a bridge event', async () => {
    const app = await apps.setup([{ toolCalls: [{ name: 'notify', args: { title: '备份完成', body: 'The backup finished: 12 files.' } }] }, { text: 'Done.' }])
    const heard: BridgeEvent[] = []
    app.app.events.subscribe((event) => heard.push(event))
    // No front door to ask: a call that asked would be denied.
    const { events, conversationId, runId } = await runPrompt(app, 'back up and tell me')
    expect(events.some((event) => event.type === 'approval_requested')).toBe(false)
    expect(events.find((event) => event.type === 'tool_call_completed')).toMatchObject({ tool: 'notify', status: 'completed', isError: false })
    const notices = heard.filter((event): event is Extract<BridgeEvent, { kind: 'notification' }> => event.kind === 'notification')
    expect(notices.map((event) => event.notice)).toEqual([
      expect.objectContaining({ reason: 'agent', title: '备份完成', body: 'The backup finished: 12 files.', conversationId, runId })
    ])
  })
})

describe('Notifications', () => {
  const input = { reason: 'run_finished' as const, title: 'Done', body: 'The scheduled task finished.' }

  it('publishes every notice and shows it natively when it can', () => {
    const published: Notice[] = []
    const shown: Notice[] = []
    const service = new Notifications({ publish: (notice) => published.push(notice), native: { supported: () => true, show: (notice) => shown.push(notice) } })
    const delivery = service.notify(input)
    expect(delivery.native).toBe(true)
    expect(published).toEqual([delivery.notice])
    expect(shown).toEqual([delivery.notice])
    expect(delivery.notice).toMatchObject({ ...input, id: expect.stringMatching(/^note_/) })
  })

  it('says why the native way failed, and still publishes', () => {
    const published: Notice[] = []
    const unsupported = new Notifications({ publish: (notice) => published.push(notice), native: { supported: () => false, show: () => {} } })
    expect(unsupported.notify(input)).toMatchObject({ native: false, nativeProblem: expect.stringContaining('no native notifications') })
    const broken = new Notifications({ publish: (notice) => published.push(notice), native: { supported: () => true, show: () => { throw new Error('dbus is gone') } } })
    expect(broken.notify(input)).toMatchObject({ native: false, nativeProblem: 'dbus is gone' })
    expect(published).toHaveLength(2)
  })
})
