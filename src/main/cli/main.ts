/** `deskclaw` — the command-line front door (docs/architecture.md). */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { AppError, errorMessage } from '../../shared'
import { APP_VERSION, DeskclawApp, defaultDataDir, settingsFromEnv, type AppConfig } from '../app'
import { startWebHost } from '../bridge'
import { parseAuditArgs, parseDesktopArgs, parseDevicesArgs, parseDoctorArgs, parseSerialArgs, parseRiskArgs, parseRunArgs, parseWebArgs, UsageError, type CommonArgs, type RunArgs } from './args'
import { attachCliApprover } from './approver'
import { auditCommand } from './audit'
import { confirmOnTerminal } from './confirm-setting'
import { desktopCommand } from './desktop'
import { devicesCommand, serialCommand } from './devices'
import { doctorCommand } from './doctor'
import { mcpCommand, parseMcpArgs } from './mcp'
import { riskCommand } from './risk'
import { EXIT, MAIN_HELP } from './help'
import { printHuman, printJson } from './printer'

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'run':
      return runCommand(parseRunArgs(rest))
    case 'web':
      return webCommand(rest)
    case 'audit': {
      const args = parseAuditArgs(rest)
      // The same data folder `run` and `web` use.
      return auditCommand(args, args.dataDir ?? defaultDataDir())
    }
    case 'risk': {
      const args = parseRiskArgs(rest)
      return riskCommand(args, args.dataDir ?? defaultDataDir())
    }
    case 'doctor':
      return doctorCommand(parseDoctorArgs(rest))
    case 'desktop':
      return desktopCommand(parseDesktopArgs(rest))
    case 'devices':
      return devicesCommand(parseDevicesArgs(rest))
    case 'serial':
      return serialCommand(parseSerialArgs(rest))
    case 'mcp':
      return mcpCommand(parseMcpArgs(rest))
    case '--version':
    case '-v':
      process.stdout.write(`${APP_VERSION}\n`)
      return EXIT.done
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(MAIN_HELP)
      return EXIT.done
    default:
      throw new UsageError(`unknown command "${command}" (try: deskclaw --help)`)
  }
}

function openApp(args: CommonArgs, defaults: { workspace?: string } = {}, config: Pick<AppConfig, 'confirmSetting'> = {}): DeskclawApp {
  return DeskclawApp.create({
    dataDir: args.dataDir ?? defaultDataDir(),
    overrides: { ...defaults, ...settingsFromEnv(process.env), ...args.overrides },
    ...config
  })
}

async function runCommand(args: RunArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const app = openApp(args, { workspace: process.cwd() })
  const detachApprover = attachCliApprover(app, args.approve, Boolean(process.stdin.isTTY && process.stderr.isTTY))
  const print = args.json ? printJson : printHuman
  const unsubscribe = app.events.subscribe((event) => {
    if (event.kind === 'agent') print(event.event)
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

async function webCommand(argv: string[]): Promise<number> {
  const args = parseWebArgs(argv)
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const rendererDir = join(__dirname, '../renderer')
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new AppError('NOT_CONFIGURED', `The UI is not built (${rendererDir} is missing): run npm run build`)
  }
  // Risky settings from the browser are confirmed on this terminal; without one they are refused.
  const app = openApp(args, {}, process.stdin.isTTY && process.stderr.isTTY ? { confirmSetting: confirmOnTerminal } : {})
  const host = await startWebHost({ app, rendererDir, host: args.host, port: args.port })
  // The last lines, set apart: the address must not drown in the build's output (issue 22, item 12).
  process.stdout.write(`\nDeskClaw is running. Open this address in your browser:\n\n    ${host.url}\n\nPress Ctrl+C to stop.\n`)
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await host.close()
  await app.close()
  return EXIT.done
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    // One line, never a stack trace: usage and configuration problems are the user's to fix.
    const isUsage = error instanceof UsageError || (error instanceof AppError && error.code === 'NOT_CONFIGURED')
    process.stderr.write(`deskclaw: ${errorMessage(error)}\n`)
    process.exitCode = isUsage ? EXIT.usage : EXIT.failed
  }
)
