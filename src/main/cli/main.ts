/**
 * `deskclaw` — the command-line front door (docs/cli.md). Each command loads its own modules
 * when it runs, so `--help` loads no AI SDK, Docker client or providers and `risk` only the
 * analyzer (issue 28; docs/benchmarks.md, "CLI start-up"). Keep the static imports here light:
 * each `import()` below is a chunk of its own in the build.
 */
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { EXIT, MAIN_HELP } from './help'
import { AppError, errorMessage } from '../../shared'
import { APP_VERSION } from '../app'
import { UsageError } from './usage-error'

/** 128 + SIGPIPE: what a shell reports for a tool its reader stopped reading. */
const EXIT_BROKEN_PIPE = 141

type Command = (argv: string[]) => Promise<number> | number

const COMMANDS: Record<string, Command> = {
  run: async (argv) => (await import('./run')).runMain(argv),
  // The built UI sits beside out/main; the entry knows where that is, a chunk does not.
  web: async (argv) => (await import('./web')).webMain(argv, join(__dirname, '../renderer')),
  audit: async (argv) => (await import('./audit')).auditMain(argv),
  schedule: async (argv) => (await import('./schedule')).scheduleMain(argv),
  risk: async (argv) => (await import('./risk')).riskMain(argv),
  undo: async (argv) => (await import('./undo')).undoMain(argv),
  doctor: async (argv) => {
    const [{ parseDoctorArgs }, { doctorCommand }] = await Promise.all([import('./args'), import('./doctor')])
    return doctorCommand(parseDoctorArgs(argv))
  },
  desktop: async (argv) => {
    const [{ parseDesktopArgs }, { desktopCommand }] = await Promise.all([import('./args'), import('./desktop')])
    return desktopCommand(parseDesktopArgs(argv))
  },
  devices: async (argv) => {
    const [{ parseDevicesArgs }, { devicesCommand }] = await Promise.all([import('./args'), import('./devices')])
    return devicesCommand(parseDevicesArgs(argv))
  },
  serial: async (argv) => {
    const [{ parseSerialArgs }, { serialCommand }] = await Promise.all([import('./args'), import('./devices')])
    return serialCommand(parseSerialArgs(argv))
  },
  mcp: async (argv) => {
    const { mcpCommand, parseMcpArgs } = await import('./mcp')
    return mcpCommand(parseMcpArgs(argv))
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
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
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  if (!run) throw new UsageError(`unknown command "${command}" (try: deskclaw --help)`)
  // The shell parser's WASM stays in its baseline code: otherwise a command waits at exit for V8 to
  // finish optimising the 1.3 MB grammar in the background, seconds on a busy machine, and the code
  // costs memory (docs/benchmarks.md, "CLI start-up").
  setFlagsFromString('--liftoff-only')
  // `web` lives long and serves one person: memory before speed. The young generation stays at its
  // first 2 MiB and the old one grows 10 % past what is live before it is collected, where V8's
  // defaults let the heap reach several times that (docs/benchmarks.md, "deskclaw web memory").
  if (command === 'web') for (const flag of ['--optimize-for-size', '--semi-space-growth-factor=1', '--heap-growing-percent=10']) setFlagsFromString(flag)
  return run(rest)
}

// The reader went away (`deskclaw run --json | head -1`): stop quietly as Unix tools do on SIGPIPE,
// which Node ignores — instead of a stack trace from the next write. Anything stored stays stored.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(EXIT_BROKEN_PIPE)
  })
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
