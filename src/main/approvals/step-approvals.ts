import type { AgentEvent } from '../../shared'
import type { ApprovalBroker, ApprovalDecision, ApprovalQuestion } from './broker'

/** What a tool call needs of the approvals: one question at a time. */
export type ApprovalAsker = Pick<ApprovalBroker, 'request'>

/**
 * The approval questions of one step, asked one after another in call order (docs/architecture.md,
 * "Approvals one at a time"). The calls still run in parallel; only their questions wait. A call's
 * turn passes once it has been answered, or once it is known not to ask (judged allow or deny,
 * or finished): the runner reports both through `observe`.
 *
 * A denial by the user answers the later questions of the same step on the same tool and subject
 * the same way, without asking again.
 */
export class StepApprovals implements ApprovalAsker {
  private readonly passed = new Map<string, () => void>()
  private readonly turns = new Map<string, Promise<void>>()
  /** One question open at a time (a call asked again after its files changed waits here too). */
  private open: Promise<unknown> = Promise.resolve()
  private readonly denied = new Map<string, ApprovalDecision>()

  /**
   * @param order the step's call ids in call order
   * @param subjectOf the "same target" key of a call (tool + risk subject), or undefined
   */
  constructor(
    private readonly broker: ApprovalAsker,
    private readonly order: readonly string[],
    private readonly subjectOf: (callId: string) => string | undefined
  ) {
    for (const callId of order) this.turns.set(callId, new Promise<void>((resolve) => this.passed.set(callId, resolve)))
  }

  /** Sees the step's events: a call judged without a question, or finished, no longer holds the ones after it. */
  observe(event: AgentEvent): void {
    if (event.type === 'risk_assessed' && event.action !== 'ask') this.pass(event.callId)
    else if (event.type === 'tool_call_completed') this.pass(event.callId)
  }

  async request(question: ApprovalQuestion): Promise<ApprovalDecision> {
    const index = this.order.indexOf(question.callId)
    const earlier = index > 0 ? this.order.slice(0, index).map((id) => this.turns.get(id)!) : []
    await untilAborted(Promise.all(earlier), question.signal)
    const subject = this.subjectOf(question.callId)
    const ask = async (): Promise<ApprovalDecision> => {
      const same = subject !== undefined ? this.denied.get(subject) : undefined
      if (same) return same
      const decision = await this.broker.request(question)
      if (decision.answer === 'deny' && decision.by === 'user' && subject !== undefined) this.denied.set(subject, decision)
      return decision
    }
    const asked = this.open.then(ask, ask)
    this.open = asked.catch(() => undefined)
    try {
      return await asked
    } finally {
      this.pass(question.callId)
    }
  }

  private pass(callId: string): void {
    this.passed.get(callId)?.()
  }
}

/** Waits for `promise`, or less when the run is cancelled (the broker then answers deny at once). */
function untilAborted(promise: Promise<unknown>, signal: AbortSignal | undefined): Promise<unknown> {
  if (!signal) return promise
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done)
      resolve(undefined)
    }
    signal.addEventListener('abort', done)
    promise.then(done, done)
  })
}
