import { BwrapRuntime } from './bwrap'
import type { CommandEnvOptions } from './command-env'
import { DockerRuntime, type DockerRuntimeOptions } from './docker'
import { imageExists } from './docker-image'
import { NativeRuntime } from './native'
import { SandboxExecRuntime } from './sandbox-exec'
import { RuntimeUnavailableError, type ProbeResult, type Runtime } from './types'

export type RuntimeChoice = 'native' | 'bwrap' | 'docker' | 'auto'

/** allowEnv / modelKeys: which variables commands get, on every runtime (command-env.ts). */
export interface SelectRuntimeOptions extends CommandEnvOptions {
  /** The bwrap binary (default `bwrap` from PATH). */
  bwrapPath?: string
  sandboxExecPath?: string
  docker?: Omit<DockerRuntimeOptions, keyof CommandEnvOptions>
  /** Default: process.platform. */
  platform?: NodeJS.Platform
  /**
   * When the chosen sandbox cannot run: true throws (fail closed), false runs natively and says
   * so (`fellBackToNative`). Default: false for `auto`, true for an explicit sandbox choice — a
   * user who asked for docker must not silently get no sandbox.
   */
  failClosed?: boolean
}

export interface RuntimeSelection {
  runtime: Runtime
  /** No sandbox could run: commands run directly on the host. */
  fellBackToNative: boolean
  /** Why each runtime tried before the chosen one was skipped, one line each. */
  reasons: string[]
}

export interface RuntimeDiagnosis {
  name: 'native' | 'bwrap' | 'sandbox-exec' | 'docker' | 'docker-image' | 'auto'
  ok: boolean
  reason?: string
  detail?: string
}

/**
 * The runtime for `choice`. `auto` prefers docker (engine answers and the image is there or can
 * be pulled), then the platform's own sandbox (bwrap on Linux, sandbox-exec on macOS), then
 * native. A docker runtime reaps orphaned containers of earlier runs before it is returned.
 */
export async function selectRuntime(choice: RuntimeChoice, options: SelectRuntimeOptions = {}): Promise<RuntimeSelection> {
  const platform = options.platform ?? process.platform
  const failClosed = options.failClosed ?? choice !== 'auto'
  const reasons: string[] = []
  const candidates: Array<() => Promise<Runtime | string>> = []
  if (choice === 'docker' || choice === 'auto') candidates.push(() => tryDocker(options))
  if (choice === 'bwrap' || (choice === 'auto' && platform === 'linux')) candidates.push(() => tryBwrap(options, platform))
  if (choice === 'auto' && platform === 'darwin') candidates.push(() => trySandboxExec(options, platform))

  for (const candidate of candidates) {
    const outcome = await candidate()
    if (typeof outcome !== 'string') return { runtime: outcome, fellBackToNative: false, reasons }
    reasons.push(outcome)
  }
  if (choice === 'auto' && platform !== 'linux' && platform !== 'darwin') {
    reasons.push(`No local sandbox exists on ${platform} (bwrap is for Linux, sandbox-exec for macOS).`)
  }
  if (choice !== 'native' && failClosed) {
    throw new RuntimeUnavailableError(`The ${choice} sandbox cannot run here: ${reasons.join(' ')}`)
  }
  return { runtime: new NativeRuntime(envOptions(options)), fellBackToNative: choice !== 'native', reasons }
}

/** Every runtime's state on this machine, for `deskclaw doctor` (see cli/doctor.ts). */
export async function diagnoseRuntimes(options: SelectRuntimeOptions = {}): Promise<RuntimeDiagnosis[]> {
  const platform = options.platform ?? process.platform
  let docker: DockerRuntime | undefined
  let engine: ProbeResult
  try {
    docker = new DockerRuntime(options.docker)
    engine = await docker.probe()
  } catch (error) {
    engine = { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
  const [bwrap, sandboxExec] = await Promise.all([
    platform === 'linux' ? BwrapRuntime.probe({ bwrapPath: options.bwrapPath }) : notOn('bwrap (bubblewrap)', 'Linux'),
    platform === 'darwin'
      ? SandboxExecRuntime.probe({ sandboxExecPath: options.sandboxExecPath })
      : notOn('sandbox-exec (Seatbelt)', 'macOS')
  ])
  const image = engine.ok && docker ? await imageDiagnosis(docker) : undefined
  const report: RuntimeDiagnosis[] = [
    { name: 'native', ok: true, detail: 'runs commands directly on this machine, without isolation' },
    diagnosis('bwrap', bwrap),
    diagnosis('sandbox-exec', sandboxExec),
    diagnosis('docker', engine),
    ...(image ? [image] : [])
  ]
  const autoPick = image?.ok ? 'docker' : bwrap.ok ? 'bwrap' : sandboxExec.ok ? 'sandbox-exec' : 'native'
  const pullNote = engine.ok && !image?.ok ? ' (docker would be used once its image is pulled or built)' : ''
  report.push({ name: 'auto', ok: autoPick !== 'native', detail: `would use ${autoPick}${pullNote}` })
  return report
}

function envOptions(options: SelectRuntimeOptions): CommandEnvOptions {
  return { allowEnv: options.allowEnv, modelKeys: options.modelKeys }
}

async function tryDocker(options: SelectRuntimeOptions): Promise<Runtime | string> {
  let docker: DockerRuntime
  try {
    docker = new DockerRuntime({ ...options.docker, ...envOptions(options) })
  } catch (error) {
    return `docker: ${error instanceof Error ? error.message : String(error)}`
  }
  const probe = await docker.probe()
  if (!probe.ok) return `docker: ${probe.reason}`
  try {
    await docker.ensureImage()
  } catch (error) {
    return `docker: ${error instanceof Error ? error.message : String(error)}`
  }
  await docker.reapOrphans().catch(() => [])
  return docker
}

async function tryBwrap(options: SelectRuntimeOptions, platform: NodeJS.Platform): Promise<Runtime | string> {
  if (platform !== 'linux') return 'bwrap: bwrap (bubblewrap) runs only on Linux.'
  const bwrap = new BwrapRuntime({ bwrapPath: options.bwrapPath, ...envOptions(options) })
  const probe = await bwrap.probe()
  return probe.ok ? bwrap : `bwrap: ${probe.reason}`
}

async function trySandboxExec(options: SelectRuntimeOptions, platform: NodeJS.Platform): Promise<Runtime | string> {
  if (platform !== 'darwin') return 'sandbox-exec: sandbox-exec (Seatbelt) exists only on macOS.'
  const runtime = new SandboxExecRuntime({ sandboxExecPath: options.sandboxExecPath, ...envOptions(options) })
  const probe = await runtime.probe()
  return probe.ok ? runtime : `sandbox-exec: ${probe.reason}`
}

async function imageDiagnosis(docker: DockerRuntime): Promise<RuntimeDiagnosis> {
  try {
    if (await imageExists(docker.docker, docker.image)) return { name: 'docker-image', ok: true, detail: `${docker.image} is present` }
    return {
      name: 'docker-image',
      ok: false,
      reason: `${docker.image} is not on the engine: it is pulled on first use, or build it with docker build -t ${docker.image} resources/sandbox`
    }
  } catch (error) {
    return { name: 'docker-image', ok: false, reason: `Cannot check ${docker.image}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

function diagnosis(name: RuntimeDiagnosis['name'], probe: ProbeResult): RuntimeDiagnosis {
  return probe.ok ? { name, ok: true, detail: probe.detail } : { name, ok: false, reason: probe.reason }
}

async function notOn(what: string, platform: string): Promise<ProbeResult> {
  return { ok: false, reason: `${what} exists only on ${platform}.` }
}
