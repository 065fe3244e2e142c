import { describe, expect, it } from 'vitest'
import type { AgentEventOf, BridgeEvent, RiskAssessment } from '../../../src/shared'
import { buildApprovalDialog, FIELD_LIMIT, NativeApprovals, type NativeApprovalPorts, type NativeDialogSpec } from '../../../src/main/electron/native-approvals'

const assessment = (alwaysRule: RiskAssessment['alwaysRule']): RiskAssessment => ({
  verdict: 'ask',
  findings: [{ rule: 'shell.write', message: 'rm deletes files.', verdict: 'ask', span: null }],
  alwaysRule
})

function question(overrides: Partial<AgentEventOf<'approval_requested'>> = {}): AgentEventOf<'approval_requested'> {
  return {
    type: 'approval_requested',
    at: 1,
    approvalId: 'apr_1',
    callId: 'call_1',
    runId: 'run_1',
    conversationId: 'conv_1',
    tool: 'shell',
    args: { command: 'rm -rf build' },
    reason: 'rm deletes files.',
    preview: { title: { key: 'Run a command' }, fields: [{ label: { key: 'Command' }, value: 'rm -rf build', code: true, arg: 'command' }] },
    assessment: assessment({ tool: 'shell', match: ['rm', '-rf', 'build'], decision: 'allow' }),
    bindingHash: 'hash-1',
    expiresAt: 10_000,
    ...overrides
  } as AgentEventOf<'approval_requested'>
}

const agent = (event: unknown): BridgeEvent => ({ kind: 'agent', event, seq: 1 }) as BridgeEvent

/** Ports that record what happened; the dialog waits until the test clicks or the signal closes it. */
function fakePorts(focused = false) {
  const shown: Array<{ spec: NativeDialogSpec; signal: AbortSignal; click(index: number): void }> = []
  const responses: unknown[] = []
  const opened: string[] = []
  const notices: string[] = []
  const ports: NativeApprovalPorts = {
    anyWindowFocused: () => focused,
    showDialog: (spec, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => resolve(spec.cancelId))
        shown.push({ spec, signal, click: resolve })
      }),
    respond: (approvalId, answer, options) => responses.push({ approvalId, answer, ...options }),
    openInApp: (conversationId) => opened.push(conversationId),
    notify: (notice) => notices.push(notice.title),
    language: () => 'en',
    messagesOf: () => undefined
  }
  return { ports, shown, responses, opened, notices }
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('native approvals', () => {
  it('offers the modal\'s answers — once, this conversation, always (when a rule exists), deny, deny with a reason — with deny as the default', () => {
    const spec = buildApprovalDialog(question(), undefined, 'en')
    expect(spec.buttons).toEqual(['Deny', 'Deny with a reason…', 'Allow once', 'Allow for this conversation', 'Always allow'])
    expect(spec.answers[spec.defaultId]).toBe('deny')
    expect(spec.answers[spec.cancelId]).toBe('deny')
    expect(spec.detail).toContain('Command: rm -rf build')
    expect(spec.detail).toContain('• rm deletes files.')
    expect(buildApprovalDialog(question({ assessment: assessment(null) }), undefined, 'en').answers).not.toContain('allow_always')
    expect(buildApprovalDialog(question(), undefined, 'zh-CN').buttons).toContain('允许一次')
  })

  it('offers no allow at all when the text had to be shortened: only open in DeskClaw and deny', () => {
    const long = 'x'.repeat(FIELD_LIMIT + 1)
    const spec = buildApprovalDialog(question({ preview: { title: { key: 'Write a file' }, fields: [{ label: { key: 'Content' }, value: long }] } }), undefined, 'en')
    expect(spec.shortened).toBe(true)
    expect(spec.answers).toEqual(['open', 'deny'])
    expect(spec.detail).toMatch(/cannot be allowed from this dialog/)
  })

  it('asks natively only when no DeskClaw window has the focus, with a notification', async () => {
    const focused = fakePorts(true)
    new NativeApprovals(focused.ports).handle(agent(question()))
    await tick()
    expect(focused.shown).toHaveLength(0)

    const away = fakePorts(false)
    new NativeApprovals(away.ports).handle(agent(question()))
    await tick()
    expect(away.shown).toHaveLength(1)
    expect(away.notices).toEqual(['DeskClaw is waiting for your approval'])
    away.shown[0]!.click(away.shown[0]!.spec.answers.indexOf('allow_conversation'))
    await tick()
    expect(away.responses).toEqual([{ approvalId: 'apr_1', answer: 'allow_conversation', bindingHash: 'hash-1', via: 'dialog' }])
  })

  it('closes itself when the question is answered elsewhere or times out, and then answers nothing', async () => {
    for (const by of ['user', 'timeout'] as const) {
      const { ports, shown, responses } = fakePorts()
      const native = new NativeApprovals(ports)
      native.handle(agent(question()))
      await tick()
      native.handle(agent({ type: 'approval_resolved', runId: 'run_1', conversationId: 'conv_1', at: 2, approvalId: 'apr_1', callId: 'call_1', answer: 'deny', by }))
      expect(shown[0]!.signal.aborted).toBe(true)
      await tick()
      expect(responses).toEqual([])
    }
  })

  it('"deny with a reason" and "open" bring DeskClaw forward on the conversation instead of answering', async () => {
    const { ports, shown, responses, opened } = fakePorts()
    new NativeApprovals(ports).handle(agent(question()))
    await tick()
    shown[0]!.click(shown[0]!.spec.answers.indexOf('deny_with_reason'))
    await tick()
    expect(opened).toEqual(['conv_1'])
    expect(responses).toEqual([])
  })

  it('tells about finished and failed runs only while nobody looks at DeskClaw', () => {
    const away = fakePorts(false)
    const native = new NativeApprovals(away.ports)
    native.handle(agent({ type: 'run_completed', runId: 'r', conversationId: 'c', at: 1, text: 'All done.\nDetails…', stopReason: 'final', iterations: 1, usage: {} }))
    native.handle(agent({ type: 'run_failed', runId: 'r', conversationId: 'c', at: 1, error: { code: 'MODEL_ERROR', message: 'boom' } }))
    expect(away.notices).toEqual(['Task finished', 'Task failed'])
    const looking = fakePorts(true)
    new NativeApprovals(looking.ports).handle(agent({ type: 'run_failed', runId: 'r', conversationId: 'c', at: 1, error: { code: 'X', message: 'y' } }))
    expect(looking.notices).toEqual([])
  })
})
