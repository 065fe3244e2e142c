import { createInterface } from 'node:readline/promises'
import type { AgentEventOf } from '../../shared'
import type { DeskclawApp } from '../app'
import type { ApproveMode } from './args'

/**
 * The CLI as an approval front door. `allow`/`deny` answer every question at once (recorded as
 * answered by policy); `ask` prompts on the terminal, one question at a time; without a
 * terminal nobody can answer, so `ask` denies.
 */
export function attachCliApprover(app: DeskclawApp, mode: ApproveMode, interactive: boolean): () => void {
  if (mode === 'ask' && !interactive) return () => {} // No front door: the broker denies, and says why.
  const detach = app.approvals.attachFrontDoor('cli')
  let queue = Promise.resolve()
  const unsubscribe = app.events.subscribe((bridgeEvent) => {
    if (bridgeEvent.kind !== 'agent' || bridgeEvent.event.type !== 'approval_requested') return
    const question = bridgeEvent.event
    if (mode === 'allow') app.approvals.respond(question.approvalId, 'allow_once', undefined, 'policy')
    else if (mode === 'deny') app.approvals.respond(question.approvalId, 'deny', 'Denied by --approve deny.', 'policy')
    else queue = queue.then(() => askOnTerminal(app, question))
  })
  return () => {
    unsubscribe()
    detach()
  }
}

async function askOnTerminal(app: DeskclawApp, question: AgentEventOf<'approval_requested'>): Promise<void> {
  const lines = [`\n⚠ ${question.preview.title} (${question.tool}) — ${question.reason}`]
  for (const field of question.preview.fields) {
    const value = field.value.includes('\n') ? `\n    ${field.value.split('\n').join('\n    ')}` : ` ${field.value}`
    lines.push(`  ${field.label}:${value}`)
  }
  process.stderr.write(lines.join('\n') + '\n')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = (await rl.question('Allow this once? [y/N] ')).trim().toLowerCase()
    if (answer === 'y' || answer === 'yes') {
      app.approvals.respond(question.approvalId, 'allow_once')
    } else {
      const reason = (await rl.question('Reason for the agent (optional): ')).trim()
      app.approvals.respond(question.approvalId, 'deny', reason || undefined)
    }
  } finally {
    rl.close()
  }
}
