import { hostArgv } from './command-argv'
import { commandEnv, type CommandEnvOptions } from './command-env'
import { spawnAndCollect } from './spawn-collect'
import { RuntimeUnavailableError, type ExecRequest, type ExecResult, type Runtime } from './types'

/** Which variables commands get (command-env.ts: the allowlist, the user's names, never the model key). */
export type NativeRuntimeOptions = CommandEnvOptions

/**
 * Runs commands directly on the host, each in its own process group so that a timeout or a
 * cancel takes the whole tree (a shell's children included), not just the shell. No isolation.
 */
export class NativeRuntime implements Runtime {
  readonly name = 'native'
  readonly shell = process.platform === 'win32' ? ('cmd' as const) : ('sh' as const)

  constructor(private readonly options: NativeRuntimeOptions = {}) {}

  async exec(request: ExecRequest): Promise<ExecResult> {
    // Nothing here can keep a command from writing; saying yes would be a lie.
    if (request.workspaceReadOnly) throw new RuntimeUnavailableError('The native runtime cannot make the workspace read-only: it has no sandbox.')
    const [file, ...args] = hostArgv(request)
    return spawnAndCollect(
      { runtime: this.name, file, args, cwd: request.cwd, env: commandEnv({ ...this.options, runtime: this.name, request: request.env }) },
      request
    )
  }
}
