import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import type { ScriptStep } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../helpers/temp-app'
import { previewAsText, type AgentEvent, type AgentEventOf } from '../../src/shared'
import { RiskEngine } from '../../src/main/risk'

/** The approval answers end to end: a real app, a real store, a scripted model (docs/risk.md). */
const { setup, server } = scriptedApps()

const shell = (command: string): ScriptStep => ({ toolCalls: [{ name: 'shell', args: { command } }] })
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is AgentEventOf<T> => e.type === type)

describe('approvals', () => {
  it('"allow for this conversation" runs the same call again without asking', async () => {
    // Two runs of one conversation: within one run an unchanged write is not repeated (docs/architecture.md, "Result cache and repeated writes").
    const app = await setup([shell('touch marker.txt'), { text: 'once' }, shell('touch marker.txt'), { text: 'done' }])
    app.setApprover('allow_conversation')
    const first = await runPrompt(app, 'touch')
    const second = await runPrompt(app, 'touch again', first.conversationId)
    const events = [...first.events, ...second.events]
    expect(of(events, 'approval_requested')).toHaveLength(1)
    expect(of(events, 'risk_assessed').map((e) => [e.action, e.source])).toEqual([
      ['ask', 'policy'],
      ['allow', 'conversation_grant']
    ])
    expect(of(events, 'tool_call_completed').map((e) => e.status)).toEqual(['completed', 'completed'])
    // A different call is a different question.
    expect(app.app.grants.has(of(events, 'risk_assessed')[0]!.conversationId, 'another-hash')).toBe(false)
  })

  it('"always" saves the narrow rule: the exact command runs without asking in a new conversation, others still ask', async () => {
    const app = await setup([shell('touch kept.txt'), { text: 'one' }, shell('touch kept.txt'), { text: 'two' }, shell('touch other.txt'), { text: 'three' }])
    app.setApprover('allow_always')
    const first = await runPrompt(app, 'first')
    expect(of(first.events, 'approval_requested')[0]!.assessment.alwaysRule).toEqual({
      tool: 'shell',
      match: ['touch', 'kept.txt'],
      decision: 'allow',
      why: 'Allowed always by the user'
    })
    expect(app.app.store.listApprovalRules()).toEqual([expect.objectContaining({ tool: 'shell', match: ['touch', 'kept.txt'], decision: 'allow' })])
    await app.app.reloadRules()
    app.setApprover('deny')
    const second = await runPrompt(app, 'second')
    expect(of(second.events, 'approval_requested')).toHaveLength(0)
    expect(of(second.events, 'risk_assessed')[0]).toMatchObject({ action: 'allow' })
    expect(of(second.events, 'risk_assessed')[0]!.assessment.findings.map((f) => f.rule)).toContain('rule.saved')
    const third = await runPrompt(app, 'third')
    expect(of(third.events, 'approval_requested')).toHaveLength(1)
    expect(existsSync(join(app.workspace, 'other.txt'))).toBe(false)
  })

  it('loads the risk engine on first use, once, with the rules saved before it (an idle host does not hold tree-sitter)', async () => {
    const create = vi.spyOn(RiskEngine, 'create')
    try {
      const app = await setup([shell('touch early.txt'), { text: 'one' }, shell('touch later.txt'), { text: 'two' }])
      app.app.store.saveApprovalRule({ tool: 'shell', match: ['touch', 'early.txt'], decision: 'allow' }, 'appr_before_any_run')
      await app.app.reloadRules() // no engine yet: nothing to tell, and nothing loaded for it
      expect(create).not.toHaveBeenCalled()

      app.setApprover('deny')
      const first = await runPrompt(app, 'first')
      expect(of(first.events, 'approval_requested')).toHaveLength(0)
      expect(of(first.events, 'risk_assessed')[0]!.assessment.findings.map((f) => f.rule)).toContain('rule.saved')
      const second = await runPrompt(app, 'second')
      expect(of(second.events, 'approval_requested')).toHaveLength(1)
      expect(create).toHaveBeenCalledTimes(1)
    } finally {
      create.mockRestore()
    }
  })

  it('never saves "always" for inline code: the answer counts as once', async () => {
    const app = await setup([shell('python3 -c "print(1)"'), { text: 'ok' }])
    app.setApprover('allow_always')
    const { events } = await runPrompt(app, 'py')
    const question = of(events, 'approval_requested')[0]!
    expect(question.assessment.alwaysRule).toBeNull()
    expect(question.assessment.alwaysBlockedReason).toMatch(/never allowed always/)
    expect(app.app.store.listApprovalRules()).toEqual([])
  })

  it('denies the critical catalogue even in full autonomy, without asking, and tells the model why', async () => {
    const app = await setup([shell('rm -rf ~'), { text: 'ok' }], { autonomy: 'full' })
    app.setApprover('allow_once')
    const { events } = await runPrompt(app, 'clean home')
    expect(of(events, 'approval_requested')).toHaveLength(0)
    expect(of(events, 'tool_call_completed')[0]).toMatchObject({ status: 'denied' })
    const toolMessage = server().requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool')
    expect(JSON.stringify(toolMessage)).toMatch(/Not allowed: Recursively deletes /)
    expect(existsSync(homedir())).toBe(true)
  })

  it('readonly autonomy denies writes without asking; reads of secrets ask', async () => {
    const app = await setup(
      [{ toolCalls: [{ name: 'file_write', args: { path: 'x.txt', content: 'x' } }, { name: 'file_read', args: { path: '.env' } }] }, { text: 'ok' }],
      { autonomy: 'supervised' }
    )
    app.setApprover('deny')
    const { events } = await runPrompt(app, 'read secrets')
    const byTool = Object.fromEntries(of(events, 'risk_assessed').map((e) => [e.tool, e.action]))
    expect(byTool).toEqual({ file_write: 'ask', file_read: 'ask' })
    const readQuestion = of(events, 'approval_requested').find((q) => q.tool === 'file_read')!
    expect(readQuestion.assessment.findings).toEqual([expect.objectContaining({ rule: 'path.sensitive', span: { arg: 'path', start: 0, end: 4 } })])
  })

  it('every decision lands in the hash-chained audit log', async () => {
    const app = await setup([shell('ls'), shell('rm -rf build'), { text: 'ok' }])
    app.setApprover('deny', 'not now')
    await runPrompt(app, 'audit me')
    const kinds = app.app.store.recentAudit(50).map((r) => `${r.kind}:${r.actor}`)
    expect(kinds).toEqual(expect.arrayContaining(['risk_decision:policy', 'approval_requested:policy', 'approval:user', 'tool_call:agent']))
    expect(app.app.store.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('is stricter when no sandbox could run: full autonomy still asks for shell commands that are not known-safe', async () => {
    const app = await setup([shell('ls'), shell('rm -rf build'), { text: 'ok' }], { autonomy: 'full', runtime: 'auto' }, {
      runtimeProbe: { bwrapPath: '/nonexistent/bwrap', dockerHost: 'tcp://127.0.0.1:1', platform: 'linux' }
    })
    app.setApprover('deny')
    const { events } = await runPrompt(app, 'clean')
    expect(of(events, 'risk_assessed').map((e) => e.action)).toEqual(['allow', 'ask'])
    expect(of(events, 'tool_call_completed')[0]).toMatchObject({ status: 'completed', runtime: 'native' })
    const shown = previewAsText(of(events, 'approval_requested')[0]!.preview, app.app.registry.get('shell')!.messages, 'en')
    expect(shown.fields.find((f) => f.label === 'Runs in')!.value).toMatch(/^native \(no sandbox/)
  })
})
