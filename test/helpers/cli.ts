import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll } from 'vitest'

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
