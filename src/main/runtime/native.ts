import { hostArgv } from './command-argv'
import { hostCommandEnv } from './scrub-env'
import { spawnAndCollect } from './spawn-collect'
import type { ExecRequest, ExecResult, Runtime } from './types'

export interface NativeRuntimeOptions {
  /** Variables whose names look like secrets but that the user lets through to commands. */
  allowEnv?: readonly string[]
}

/**
 * Runs commands directly on the host, each in its own process group so that a timeout or a
 * cancel takes the whole tree (a shell's children included), not just the shell. No isolation.
 */
export class NativeRuntime implements Runtime {
  readonly name = 'native'
  readonly shell = process.platform === 'win32' ? ('cmd' as const) : ('sh' as const)

  constructor(private readonly options: NativeRuntimeOptions = {}) {}

  exec(request: ExecRequest): Promise<ExecResult> {
    const [file, ...args] = hostArgv(request)
    return spawnAndCollect(
      { runtime: this.name, file, args, cwd: request.cwd, env: hostCommandEnv(this.options.allowEnv, request.env) },
      request
    )
  }
}
