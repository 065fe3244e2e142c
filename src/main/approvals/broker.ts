import {
  newId,
  type AgentEvent,
  type ApprovalAnswer,
  type ApprovalFrontDoor,
  type ApprovalPreview,
  type ApprovalResolver,
  type PendingApproval,
  type RiskAssessment
} from '../../shared'

export interface ApprovalQuestion {
  runId: string
  conversationId: string
  callId: string
  tool: string
  args: unknown
  reason: string
  preview: ApprovalPreview
  assessment: RiskAssessment
  /** Hash of what is shown (see bindingHash); an answer must quote it. */
  bindingHash: string
  signal?: AbortSignal
  /** Only "allow once" or "deny" (a message send); a wider allow is taken as once. */
  onlyOnce?: boolean
  /** A sub-agent asks: its task labels the question. */
  delegatedTask?: string
}

export interface ApprovalResponse {
  reason?: string
  by?: ApprovalResolver
  /** Where it was answered (kept with the answer: the timeline shows it after a reload). */
  via?: ApprovalFrontDoor
  /** The bindingHash of the question as the front door showed it. */
  bindingHash: string
}

export interface ApprovalDecision {
  approvalId: string
  answer: ApprovalAnswer
  by: ApprovalResolver
  reason?: string
  via?: ApprovalFrontDoor
}

type Settlement = Omit<ApprovalDecision, 'approvalId'>

interface Waiting {
  question: PendingApproval
  settle(decision: Settlement): void
}

export interface ApprovalBrokerOptions {
  timeoutMs: number
  emit(event: AgentEvent): void
}

/**
 * Sends every question to all front doors (through `approval_requested` events) and waits for
 * the first answer. Fails closed: no front door, no answer before the timeout, or a cancelled run
 * all mean deny. Every outcome is emitted as `approval_resolved`, so it reaches the audit log.
 */
export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>()
  private readonly frontDoors = new Set<string>()
  private timeoutMs: number

  constructor(private readonly options: ApprovalBrokerOptions) {
    this.timeoutMs = options.timeoutMs
  }

  setTimeout(ms: number): void {
    this.timeoutMs = ms
  }

  /** A front door (window, web client, CLI prompt) that can show questions; returns its detach. */
  attachFrontDoor(name: string): () => void {
    const key = `${name}#${newId('appr')}`
    this.frontDoors.add(key)
    return () => {
      this.frontDoors.delete(key)
    }
  }

  hasFrontDoor(): boolean {
    return this.frontDoors.size > 0
  }

  pending(): PendingApproval[] {
    return [...this.waiting.values()].map((entry) => entry.question)
  }

  request(question: ApprovalQuestion): Promise<ApprovalDecision> {
    const approvalId = newId('appr')
    const now = Date.now()
    const pending: PendingApproval = {
      approvalId,
      conversationId: question.conversationId,
      runId: question.runId,
      callId: question.callId,
      tool: question.tool,
      args: question.args,
      reason: question.reason,
      preview: question.preview,
      assessment: question.assessment,
      bindingHash: question.bindingHash,
      expiresAt: now + this.timeoutMs,
      ...(question.onlyOnce ? { onlyOnce: true } : {}),
      ...(question.delegatedTask ? { delegatedTask: question.delegatedTask } : {})
    }
    return new Promise<ApprovalDecision>((resolve) => {
      let done = false
      const settle = (decision: Settlement): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        question.signal?.removeEventListener('abort', onAbort)
        this.waiting.delete(approvalId)
        this.options.emit({
          type: 'approval_resolved',
          at: Date.now(),
          runId: question.runId,
          conversationId: question.conversationId,
          approvalId,
          callId: question.callId,
          answer: decision.answer,
          by: decision.by,
          ...(decision.reason ? { reason: decision.reason } : {}),
          ...(decision.via ? { via: decision.via } : {})
        })
        resolve({ ...decision, approvalId })
      }
      const timer = setTimeout(
        () => settle({ answer: 'deny', by: 'timeout', reason: 'No answer before the approval timed out.' }),
        this.timeoutMs
      )
      const onAbort = (): void => settle({ answer: 'deny', by: 'cancelled', reason: 'The run was cancelled.' })
      // Registered before the question goes out: a front door may answer synchronously.
      this.waiting.set(approvalId, { question: pending, settle })
      this.options.emit({ type: 'approval_requested', at: now, ...pending })

      if (question.signal?.aborted) onAbort()
      else question.signal?.addEventListener('abort', onAbort, { once: true })
      if (!this.hasFrontDoor()) {
        settle({ answer: 'deny', by: 'no_front_door', reason: 'Nobody is there to approve it (no window or prompt is open).' })
      }
    })
  }

  /**
   * An answer from a front door; false when the question is already settled, unknown, or the
   * answer quotes a different binding hash (it was given for something other than this call).
   */
  respond(approvalId: string, answer: ApprovalAnswer, response: ApprovalResponse): boolean {
    const entry = this.waiting.get(approvalId)
    if (!entry || entry.question.bindingHash !== response.bindingHash) return false
    const reason = response.reason?.trim()
    // A question for one call only is never answered for the conversation or always.
    const given = entry.question.onlyOnce && answer !== 'deny' ? 'allow_once' : answer
    entry.settle({ answer: given, by: response.by ?? 'user', ...(reason ? { reason } : {}), ...(response.via ? { via: response.via } : {}) })
    return true
  }

  /** Denies everything still waiting (shutdown). */
  denyAll(reason: string): void {
    for (const entry of [...this.waiting.values()]) entry.settle({ answer: 'deny', by: 'cancelled', reason })
  }
}
