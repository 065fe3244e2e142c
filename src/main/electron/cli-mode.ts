/**
 * The packaged app's command line (README.md, "Packaging"): `DeskClaw --cli <command> …` runs what
 * `deskclaw <command> …` runs under Node — the built CLI, out/main/cli.js — inside this Electron
 * process: no window, no single-instance lock, no Dock icon; the process exits with the command's
 * code. The `deskclaw` wrappers in resources/cli/ add the `--cli`.
 *
 * Why not ELECTRON_RUN_AS_NODE: the packaged binary has the runAsNode fuse off
 * (electron-builder.config.cjs), and its better-sqlite3 is built for Electron's ABI, not Node's.
 *
 * main.ts calls runCliIfAsked(process.argv) before anything else and starts the GUI only when it
 * returns null.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { app } from 'electron'

/** Everything after the first `--cli` is the CLI's argv; Chromium switches may come before it. */
export const CLI_FLAG = '--cli'

/** Exit codes for a signal nobody in the CLI handles, as a shell reports them (128 + signal). */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 }
const POLL_MS = 25
const FLUSH_TIMEOUT_MS = 2_000

/** The CLI's arguments when argv asks for the command line, else null. argv[0] is the binary. */
export function cliArguments(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(CLI_FLAG, 1)
  return at === -1 ? null : argv.slice(at + 1)
}

/**
 * Someone ran the packaged binary as Node (`ELECTRON_RUN_AS_NODE=1 DeskClaw script.js`, which is
 * what child_process.fork does): the fuse ignores the variable, and without this check the script
 * path would start a second GUI instead of failing.
 */
export function isRefusedNodeRun(argv: readonly string[], env: NodeJS.ProcessEnv, isPackaged: boolean): boolean {
  const script = argv[1]
  return isPackaged && Boolean(env.ELECTRON_RUN_AS_NODE) && script !== undefined && /\.[cm]?js$/i.test(script) && cliArguments(argv) === null
}

export interface CliModeOptions {
  /** The built CLI (default: out/main/cli.js, found from this bundle). */
  entry?: string
  env?: NodeJS.ProcessEnv
}

/**
 * Runs the CLI and exits when argv asks for it (`--cli`), refuses a Node-style run of the packaged
 * binary; returns null when the GUI should start. The promise resolves with the exit code just
 * before app.exit(code).
 */
export function runCliIfAsked(argv: readonly string[] = process.argv, options: CliModeOptions = {}): Promise<number> | null {
  if (isRefusedNodeRun(argv, options.env ?? process.env, app.isPackaged)) {
    return exitWith(2, 'deskclaw: this app does not run scripts as Node (ELECTRON_RUN_AS_NODE is off in packaged builds); use --cli\n')
  }
  const args = cliArguments(argv)
  if (args === null) return null
  if (process.platform === 'darwin') app.dock?.hide()
  return runCli(args, options.entry ?? cliEntry()).then((code) => exitWith(code))
}

/** out/main/cli.js: beside the bundle that asks (index.js), or one level up from a shared chunk. */
function cliEntry(): string {
  const candidates = [join(__dirname, 'cli.js'), join(__dirname, '..', 'cli.js')]
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!
}

/**
 * Loads cli.js with the CLI's argv. It runs its command at once and, when done, only sets
 * process.exitCode (under Node the process then ends by itself; Electron's does not), so the code is
 * awaited by watching process.exitCode.
 */
async function runCli(args: string[], entry: string): Promise<number> {
  const savedArgv = process.argv
  process.argv = [process.execPath, entry, ...args]
  process.exitCode = undefined
  // Like Node: a signal ends the process unless the command listens for it (`run` cancels, `web` closes).
  const onSignal = (signal: NodeJS.Signals): void => {
    if (process.listenerCount(signal) === 1) app.exit(SIGNAL_EXIT[signal] ?? 1)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  // Electron's own Ctrl+C handling asks the app to quit: hand it to the command instead.
  const onBeforeQuit = (event: Electron.Event): void => {
    if (process.listenerCount('SIGINT') > 1) {
      event.preventDefault()
      process.emit('SIGINT', 'SIGINT')
    }
  }
  app.on('before-quit', onBeforeQuit)
  try {
    try {
      createRequire(__filename)(entry)
    } catch (error) {
      process.stderr.write(`deskclaw: could not load the command line (${entry}): ${error instanceof Error ? error.message : String(error)}\n`)
      return 1
    }
    return await new Promise<number>((resolve) => {
      const timer = setInterval(() => {
        const code = process.exitCode
        if (code === undefined || code === null) return
        clearInterval(timer)
        resolve(Number(code) || 0)
      }, POLL_MS)
    })
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    app.off('before-quit', onBeforeQuit)
    process.argv = savedArgv
  }
}

/** Lets stdout and stderr drain (pipes are asynchronous on macOS), then exits with code. */
async function exitWith(code: number, message?: string): Promise<number> {
  if (message) process.stderr.write(message)
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  app.exit(code)
  return code
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_TIMEOUT_MS)
    stream.write('', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}
