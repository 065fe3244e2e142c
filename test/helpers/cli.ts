import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll } from 'vitest'
import type { ScriptedServer } from '../fixtures/scripted-types'

/** The `deskclaw` command as users run it (bin/deskclaw.js loads the built out/main/cli.js). */
export const cliPath = join(process.cwd(), 'bin', 'deskclaw.js')

/** CLI tests spawn the built command: fail at once with the fix when it is not built. */
export function requireBuiltCli(): void {
  beforeAll(() => {
    if (!existsSync(join(process.cwd(), 'out', 'main', 'cli.js'))) {
      throw new Error('The CLI is not built: run `npm run build` (npm test does it first).')
    }
  })
}

export interface CliOutcome {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the built `deskclaw` to its end with `env` over this process's environment; its exit code and what it printed. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliOutcome> {
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

/**
 * A CLI test's scripted model server and scratch folder, set by the test as it starts them:
 * closed and removed after each test, whichever it got to.
 */
export function cliScratch(): { server?: ScriptedServer; root?: string } {
  const scratch: { server?: ScriptedServer; root?: string } = {}
  afterEach(async () => {
    await scratch.server?.close()
    if (scratch.root) rmSync(scratch.root, { recursive: true, force: true })
    scratch.server = scratch.root = undefined
  })
  return scratch
}
