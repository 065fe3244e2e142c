import { createInterface } from 'node:readline/promises'
import { previewAsText, type AgentEventOf } from '../../shared'
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
    const bindingHash = question.bindingHash
    if (mode === 'allow') app.approvals.respond(question.approvalId, 'allow_once', { by: 'policy', via: 'terminal', bindingHash })
    else if (mode === 'deny') {
      app.approvals.respond(question.approvalId, 'deny', { reason: 'Denied by --approve deny.', by: 'policy', via: 'terminal', bindingHash })
    }
    else queue = queue.then(() => askOnTerminal(app, question))
  })
  return () => {
    unsubscribe()
    detach()
  }
}

async function askOnTerminal(app: DeskclawApp, question: AgentEventOf<'approval_requested'>): Promise<void> {
  const { verdict, findings } = question.assessment
  const preview = previewAsText(question.preview, app.registry.get(question.tool)?.messages, 'en')
  const lines = [`\n⚠ ${preview.title} (${question.tool}) — ${verdict}: ${question.reason}`]
  for (const field of preview.fields) {
    const value = field.value.includes('\n') ? `\n    ${field.value.split('\n').join('\n    ')}` : ` ${field.value}`
    lines.push(`  ${field.label}:${value}`)
  }
  for (const finding of findings.filter((f) => f.verdict !== 'allow')) lines.push(`  • [${finding.rule}] ${finding.message}`)
  process.stderr.write(lines.join('\n') + '\n')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const bindingHash = question.bindingHash
    const always = question.assessment.alwaysRule
    // A message send is approved one at a time: only yes (once) or no.
    const once = question.onlyOnce === true
    const choices = once ? '[y]es once / [N]o' : always ? '[y]es once / [c]onversation / [a]lways / [N]o' : '[y]es once / [c]onversation / [N]o'
    const answer = (await rl.question(`Allow? ${choices} `)).trim().toLowerCase()
    if (answer === 'y' || answer === 'yes') app.approvals.respond(question.approvalId, 'allow_once', { via: 'terminal', bindingHash })
    else if (answer === 'c' && !once) app.approvals.respond(question.approvalId, 'allow_conversation', { via: 'terminal', bindingHash })
    else if (answer === 'a' && always) app.approvals.respond(question.approvalId, 'allow_always', { via: 'terminal', bindingHash })
    else {
      const reason = (await rl.question('Reason for the agent (optional): ')).trim()
      app.approvals.respond(question.approvalId, 'deny', { reason: reason || undefined, via: 'terminal', bindingHash })
    }
  } finally {
    rl.close()
  }
}
