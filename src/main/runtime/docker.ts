import fs from 'node:fs'
import type Docker from 'dockerode'
import { posixArgv } from './command-argv'
import { commandEnv, envList, type CommandEnvOptions } from './command-env'
import { createDockerClient, describeEngine, explainEngineError, pingEngine } from './docker-client'
import {
  DEFAULT_LIMITS,
  DEFAULT_SANDBOX_IMAGE,
  LABEL,
  MIB,
  containerSpec,
  ownerLabels,
  type SandboxLimits
} from './docker-container-spec'
import { runDockerExec, type DockerExecOutcome } from './docker-exec'
import { runInShell, ShellPool } from './docker-shell'
import { isInsideFolder } from '../workspace'
import { signalFromStatus } from './exit-status'
import { ensureImage, pullProgressLines, type ImagePullProgress } from './docker-image'
import { listSandboxContainers, reapOrphans, removeContainers } from './docker-reaper'
import { RuntimeUnavailableError, type ExecRequest, type ExecResult, type ProbeResult, type Runtime } from './types'

/** allowEnv / modelKeys: which variables commands get (command-env.ts); nothing else of the host's environment. */
export interface DockerRuntimeOptions extends CommandEnvOptions {
  /** Default DEFAULT_SANDBOX_IMAGE. */
  image?: string
  limits?: Partial<SandboxLimits>
  /** `uid:gid` inside the container; default this user's, so workspace files stay theirs. */
  user?: string
  /** DOCKER_HOST syntax (unix://, tcp://, ssh://…); default: DOCKER_HOST from the environment. */
  dockerHost?: string
  /** A ready client (tests, custom TLS); overrides `dockerHost`. */
  docker?: Docker
  /** Pull progress when the image is fetched on first use. */
  onImageProgress?(progress: ImagePullProgress): void
  /** Recorded on containers for the orphan reaper; default this process. */
  ownerPid?: number
  /**
   * Run commands through a persistent shell in the container (default true); false: one
   * `docker exec` per command, as before (the benchmark compares both).
   */
  persistentShell?: boolean
}

/** Commands without a conversation share this container. */
const DEFAULT_CONVERSATION = 'default'
const SIGKILL_STATUS = 137

interface Sandbox {
  container: Docker.Container
  id: string
  workspace: string
  dead: boolean
  /** The persistent shells running this container's commands. */
  shells: ShellPool
}

/**
 * One long-lived container per conversation, its commands run by persistent shells in it (a
 * fresh `docker exec` only when no shell can start) (docs/runtimes.md): no
 * network, read-only root, private /tmp, no capabilities, memory / cpu / pids limits, only the
 * workspace mounted (at the same path). A container that died is recreated on the next command.
 */
export class DockerRuntime implements Runtime {
  readonly name = 'docker'
  readonly docker: Docker
  readonly image: string
  readonly limits: SandboxLimits
  private readonly sandboxes = new Map<string, Promise<Sandbox>>()
  private imageReady?: Promise<unknown>

  constructor(private readonly options: DockerRuntimeOptions = {}) {
    this.docker = options.docker ?? createDockerClient(options.dockerHost)
    this.image = options.image ?? DEFAULT_SANDBOX_IMAGE
    this.limits = { ...DEFAULT_LIMITS, ...options.limits }
  }

  /** Whether the engine (DOCKER_HOST or `dockerHost`) answers, within about 2 s. */
  static async probe(options: Pick<DockerRuntimeOptions, 'dockerHost' | 'docker'> = {}): Promise<ProbeResult> {
    try {
      return await pingEngine(options.docker ?? createDockerClient(options.dockerHost))
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) }
    }
  }

  probe(): Promise<ProbeResult> {
    return pingEngine(this.docker)
  }

  /** Pulls the image when it is missing (progress through `onProgress`); a clear error if that fails. */
  ensureImage(onProgress = this.options.onImageProgress): Promise<unknown> {
    this.imageReady ??= this.withEngineErrors(() => ensureImage(this.docker, this.image, onProgress)).catch((error) => {
      this.imageReady = undefined
      throw error
    })
    return this.imageReady
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const started = Date.now()
    const conversationId = request.conversationId ?? DEFAULT_CONVERSATION
    // A read-only run gets the conversation's second container, whose workspace mount is read-only
    // (docs/runtimes.md, "A read-only workspace"): a mount's mode is fixed when a container starts.
    const readOnly = request.workspaceReadOnly === true
    const workspace = realPath(request.workspace ?? request.cwd)
    const cwd = realPath(request.cwd)
    if (!isInsideFolder(workspace, cwd)) {
      throw new RuntimeUnavailableError(`The command's folder ${request.cwd} is outside the workspace ${workspace}.`)
    }
    const reportPull = pullProgressLines(this.image, (line) => request.onOutput?.('stderr', line))
    const outOfMemoryLine = this.outOfMemoryLine
    const argv = posixArgv(request)
    const env = this.commandEnv(request)
    const run = async (sandbox: Sandbox): Promise<DockerExecOutcome> =>
      (this.options.persistentShell !== false
        ? await runInShell({ pool: sandbox.shells, container: sandbox.container, argv, cwd, env, request })
        : undefined) ?? (await runDockerExec({ docker: this.docker, container: sandbox.container, argv, cwd, env, outOfMemoryLine, request }))

    // A first use may pull the image: its progress goes to the timeline as output of this call.
    await this.ensureImage((progress) => {
      this.options.onImageProgress?.(progress)
      reportPull(progress)
    })
    let sandbox = await this.sandboxFor(conversationId, workspace, readOnly)
    let outcome: DockerExecOutcome
    try {
      outcome = await this.withEngineErrors(() => run(sandbox))
    } catch (error) {
      if (!isContainerGone(error)) throw asUnavailable(error, 'Cannot run the command in the sandbox container')
      // Killed, removed behind our back, or OOM took PID 1: start a fresh one, once.
      sandbox.dead = true
      sandbox = await this.sandboxFor(conversationId, workspace, readOnly)
      outcome = await this.withEngineErrors(() => run(sandbox)).catch((retryError: unknown) => {
        throw asUnavailable(retryError, 'Cannot run the command in the sandbox container')
      })
    }
    if (outcome.containerKilled) sandbox.dead = true

    const stopped = outcome.timedOut || outcome.cancelled
    const oomKilled = outcome.stderr.endsWith(`${outOfMemoryLine}\n`) || (await this.diedOfMemory(sandbox, outcome))
    if (oomKilled && !outcome.stderr.endsWith(`${outOfMemoryLine}\n`)) outcome.output.push('stderr', `${outOfMemoryLine}\n`)
    const killedBySignal = stopped || outcome.containerKilled || outcome.shellLost || (oomKilled && outcome.exitCode === SIGKILL_STATUS)
    const exitCode = killedBySignal ? null : outcome.exitCode
    return {
      exitCode,
      signal: killedBySignal ? signalFromStatus(outcome.exitCode) : null,
      stdout: outcome.output.text('stdout'),
      stderr: outcome.output.text('stderr'),
      truncated: outcome.output.truncated,
      durationMs: Date.now() - started,
      timedOut: outcome.timedOut,
      cancelled: outcome.cancelled,
      oomKilled,
      runtime: this.name
    }
  }

  /** The container id serving a conversation, once one was started. */
  async containerId(conversationId = DEFAULT_CONVERSATION, workspaceReadOnly = false): Promise<string | undefined> {
    const sandbox = await this.sandboxes.get(sandboxKey(conversationId, workspaceReadOnly))?.catch(() => undefined)
    return sandbox?.id
  }

  /** Removes the conversation's container(s), its read-only one too: this runtime's and any left by this process. */
  async closeConversation(conversationId: string): Promise<void> {
    const tracked: Sandbox[] = []
    for (const key of [sandboxKey(conversationId, false), sandboxKey(conversationId, true)]) {
      const sandbox = await this.sandboxes.get(key)?.catch(() => undefined)
      this.sandboxes.delete(key)
      await sandbox?.shells.close()
      if (sandbox) tracked.push(sandbox)
    }
    const labelled = await this.withEngineErrors(() =>
      listSandboxContainers(this.docker, { ...ownerLabels(this.ownerPid), [LABEL.conversation]: conversationId })
    )
    await removeContainers(this.docker, [...new Set([...tracked.map((sandbox) => sandbox.id), ...labelled.map((info) => info.Id)])])
  }

  /** Removes containers of DeskClaw processes on this machine that are gone (see docker-reaper). */
  reapOrphans(): Promise<string[]> {
    return this.withEngineErrors(() => reapOrphans(this.docker))
  }

  /** Removes every container this runtime started. */
  async close(): Promise<void> {
    const sandboxes = await Promise.all([...this.sandboxes.values()].map((sandbox) => sandbox.catch(() => undefined)))
    this.sandboxes.clear()
    await Promise.all(sandboxes.map((sandbox) => sandbox?.shells.close()))
    await removeContainers(
      this.docker,
      sandboxes.flatMap((sandbox) => (sandbox ? [sandbox.id] : []))
    ).catch(() => {})
  }

  private get outOfMemoryLine(): string {
    return `deskclaw: the command was killed because the sandbox ran out of memory (limit ${Math.round(this.limits.memoryBytes / MIB)} MiB).`
  }

  private get ownerPid(): number {
    return this.options.ownerPid ?? process.pid
  }

  private sandboxFor(conversationId: string, workspace: string, workspaceReadOnly: boolean): Promise<Sandbox> {
    const key = sandboxKey(conversationId, workspaceReadOnly)
    const existing = this.sandboxes.get(key)
    const next = (async () => {
      const previous = await existing?.catch(() => undefined)
      if (previous && !previous.dead && previous.workspace === workspace) return previous
      if (previous) {
        await previous.shells.close()
        await removeContainers(this.docker, [previous.id]).catch(() => {})
      }
      return this.startSandbox(conversationId, workspace, workspaceReadOnly)
    })()
    this.sandboxes.set(key, next)
    next.catch(() => {
      if (this.sandboxes.get(key) === next) this.sandboxes.delete(key)
    })
    return next
  }

  private async startSandbox(conversationId: string, workspace: string, workspaceReadOnly: boolean): Promise<Sandbox> {
    await this.ensureImage()
    return this.withEngineErrors(async () => {
      const container = await this.docker.createContainer(
        containerSpec({ image: this.image, conversationId, workspace, workspaceReadOnly, limits: this.limits, user: this.user, ownerPid: this.ownerPid })
      )
      try {
        await container.start()
      } catch (error) {
        await container.remove({ force: true }).catch(() => {})
        throw error
      }
      return { container, id: container.id, workspace, dead: false, shells: new ShellPool(this.docker, container, this.outOfMemoryLine) }
    }).catch((error: unknown) => {
      throw asUnavailable(error, `Cannot start a sandbox container from ${this.image}`)
    })
  }

  /**
   * The wrapper reports OOM kills it outlives; this covers the one it does not: the whole
   * container gone (PID 1 killed), which the engine records as State.OOMKilled.
   */
  private async diedOfMemory(sandbox: Sandbox, outcome: DockerExecOutcome): Promise<boolean> {
    if (outcome.exitCode !== null && outcome.exitCode !== SIGKILL_STATUS) return false
    const info = await sandbox.container.inspect().catch(() => undefined)
    if (info?.State.Running) return false
    sandbox.dead = true
    return Boolean(info?.State.OOMKilled)
  }

  private commandEnv(request: ExecRequest): string[] {
    return envList(commandEnv({ allowEnv: this.options.allowEnv, modelKeys: this.options.modelKeys, runtime: this.name, request: request.env }))
  }

  private get user(): string | undefined {
    if (this.options.user !== undefined) return this.options.user
    return process.getuid && process.getgid ? `${process.getuid()}:${process.getgid()}` : undefined
  }

  /** Engine failures (refused, timed out…) become one line; Docker API errors pass through. */
  private async withEngineErrors<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action()
    } catch (error) {
      if (error instanceof RuntimeUnavailableError || (error as { statusCode?: number }).statusCode !== undefined) throw error
      throw new RuntimeUnavailableError(explainEngineError(error, describeEngine(this.docker)))
    }
  }
}

/** Where a conversation's container is kept: its read-only twin under its own key. */
function sandboxKey(conversationId: string, workspaceReadOnly: boolean): string {
  return workspaceReadOnly ? `${conversationId}\u0000ro` : conversationId
}

/** Docker API errors arrive as "(HTTP code 400) unexpected - <message>": keep the message. */
function asUnavailable(error: unknown, what: string): Error {
  if (error instanceof RuntimeUnavailableError) return error
  const api = error as { json?: { message?: string }; message?: string }
  const detail = (api.json?.message ?? api.message ?? String(error)).split('\n')[0].trim()
  return new RuntimeUnavailableError(`${what}: ${detail}`)
}

function isContainerGone(error: unknown): boolean {
  const status = (error as { statusCode?: number }).statusCode
  return status === 404 || status === 409
}

function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir)
  } catch {
    return dir
  }
}

