/** `deskclaw web`: the UI in a browser over the loopback web host (docs/cli.md). */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../../shared'
import { startWebHost } from '../bridge'
import { parseWebArgs } from './args'
import { confirmOnTerminal } from './confirm-setting'
import { EXIT, MAIN_HELP } from './help'
import { openApp } from './open-app'

/** `rendererDir`: the built UI; the entry knows where it is (this code may sit in a chunk elsewhere). */
export async function webMain(argv: string[], rendererDir: string): Promise<number> {
  const args = parseWebArgs(argv)
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new AppError('NOT_CONFIGURED', `The UI is not built (${rendererDir} is missing): run npm run build`)
  }
  // Risky settings from the browser are confirmed on this terminal; without one they are refused.
  // A web host stays up like the tray app: it runs scheduled tasks at their times (docs/tools.md, "Schedules").
  const app = openApp(args, {}, { runSchedules: true, startMcpServers: true, ...(process.stdin.isTTY && process.stderr.isTTY ? { confirmSetting: confirmOnTerminal } : {}) })
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
