/** `deskclaw run`: one task headless, its events printed as they happen (docs/cli.md). */
import { parseRunArgs } from './args'
import { attachCliApprover } from './approver'
import { EXIT, MAIN_HELP } from './help'
import { openApp } from './open-app'
import { printHuman, printJson, printNotice } from './printer'

export async function runMain(argv: string[]): Promise<number> {
  const args = parseRunArgs(argv)
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const app = openApp(args, { workspace: process.cwd() })
  const detachApprover = attachCliApprover(app, args.approve, Boolean(process.stdin.isTTY && process.stderr.isTTY))
  const print = args.json ? printJson : printHuman
  const unsubscribe = app.events.subscribe((event) => {
    if (event.kind === 'agent') print(event.event)
    else if (event.kind === 'notification') printNotice(event.notice)
  })
  let runId: string | undefined
  const onSigint = (): void => {
    if (runId) app.agent.cancel(runId)
  }
  process.on('SIGINT', onSigint)
  try {
    const conversationId = args.conversationId ?? app.store.createConversation().id
    // MCP servers' tools must be listed before the first model step sees the tool set.
    await app.mcp.ready()
    runId = app.agent.send(conversationId, args.prompt).runId
    const outcome = await app.agent.wait(runId)
    if (outcome.status === 'failed') {
      process.stderr.write(`deskclaw: ${outcome.error.message}\n`)
      return EXIT.failed
    }
    if (outcome.stopReason === 'cancelled') return EXIT.cancelled
    if (outcome.stopReason === 'max_iterations') return EXIT.maxIterations
    return EXIT.done
  } finally {
    process.off('SIGINT', onSigint)
    unsubscribe()
    detachApprover()
    await app.close()
  }
}
