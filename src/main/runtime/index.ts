/**
 * Runtimes that execute tool commands (docs/runtimes.md): native (no isolation), bwrap (Linux),
 * sandbox-exec (macOS) and docker (one container per conversation), and how to pick one.
 */
export type { ExecCommand, ExecRequest, ExecResult, ProbeResult, Runtime } from './types'
export { RuntimeUnavailableError, SANDBOX_RUNTIME_NAMES } from './types'
export { OUTPUT_CAP_CHARS } from './output-collector'
export { NativeRuntime, type NativeRuntimeOptions } from './native'
export { BwrapRuntime, bwrapArgs, type BwrapRuntimeOptions } from './bwrap'
export { SandboxExecRuntime, sandboxProfile, SANDBOX_EXEC_PATH, type SandboxExecRuntimeOptions } from './sandbox-exec'
export { DockerRuntime, type DockerRuntimeOptions } from './docker'
export { DEFAULT_SANDBOX_IMAGE, DEFAULT_LIMITS, LABEL as DOCKER_LABELS, type SandboxLimits } from './docker-container-spec'
export type { ImagePullProgress } from './docker-image'
export {
  selectRuntime,
  diagnoseRuntimes,
  type RuntimeChoice,
  type RuntimeDiagnosis,
  type RuntimeSelection,
  type SelectRuntimeOptions
} from './select'
export { SelectedRuntime } from './selected'
export { commandEnv, COMMAND_ENV_ALLOWLIST, type CommandEnvOptions, type ModelKeys } from './command-env'
