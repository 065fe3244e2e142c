import { oneLine, summarizeArgs, type AgentEvent, type Notice } from '../../shared'

/** A notice (the notify tool's, a scheduled run's) as one line on stderr, in --json mode too (docs/tools.md, "Notifications"). */
export function printNotice(notice: Notice): void {
  process.stderr.write(`🔔 ${oneLine(notice.title)}${notice.body ? ` — ${oneLine(notice.body)}` : ''}\n`)
}

/** NDJSON: one event per line, exactly as emitted. */
export function printJson(event: AgentEvent): void {
  process.stdout.write(JSON.stringify(event) + '\n')
}

/** For people: the answer on stdout, tool activity on stderr. */
export function printHuman(event: AgentEvent): void {
  switch (event.type) {
    case 'text_delta':
      process.stdout.write(event.delta)
      break
    case 'tool_call_started':
      process.stderr.write(`\n▸ ${event.tool} ${event.summary ? oneLine(event.summary) : summarizeArgs(event.args)}\n`)
      break
    case 'tool_call_completed': {
      const mark = event.status === 'completed' ? '✓' : event.status === 'denied' ? '⊘' : '✗'
      const said = event.output.split('\n')[0]
      const firstLine = event.isError && said ? ` — ${said}` : ''
      process.stderr.write(`${mark} ${event.tool} ${event.status} (${event.durationMs} ms)${firstLine}\n`)
      break
    }
    case 'run_completed':
      if (event.text && !event.text.endsWith('\n')) process.stdout.write('\n')
      if (event.stopReason === 'max_iterations') {
        process.stderr.write(`Stopped after ${event.iterations} steps (--max-iterations).\n`)
      }
      break
    default:
      break
  }
}
