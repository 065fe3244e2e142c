import fs from 'node:fs'
import type { Readable } from 'node:stream'
import { loadExeca } from './load-execa'
import { posixArgv } from './command-argv'
import { signalFromStatus } from './exit-status'
import { commandEnv, type CommandEnvOptions } from './command-env'
import { credentialMaskArgs } from './credential-masks'
import { spawnAndCollect } from './spawn-collect'
import { RuntimeUnavailableError, type ExecRequest, type ExecResult, type ProbeResult, type Runtime } from './types'

/** allowEnv / modelKeys: which variables commands get (command-env.ts). */
export interface BwrapRuntimeOptions extends CommandEnvOptions {
  /** The bwrap binary; default `bwrap` from PATH. */
  bwrapPath?: string
}

const PROBE_TIMEOUT_MS = 5_000
/** bwrap writes `{"child-pid": N}` here: the process (and group) that runs inside the sandbox. */
const INFO_FD = 3

/**
 * The isolation every bwrap command gets: new pid/ipc/uts/net namespaces (no network, only
 * `lo`), the host filesystem read-only, a private /tmp and /dev, no capabilities, and the
 * sandbox dies with bwrap. `--unshare-user` is added where the kernel allows it (probe).
 */
export function bwrapIsolationArgs(userNamespace: boolean): string[] {
  return [
    '--new-session',
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    ...(userNamespace ? ['--unshare-user'] : []),
    // Root outside keeps every capability inside unless told otherwise, and could remount / rw.
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp'
  ]
}

/** The whole bwrap argv (without the binary) for one request. */
export function bwrapArgs(request: ExecRequest, userNamespace: boolean): string[] {
  const workspace = realPath(request.workspace ?? request.cwd)
  // The user's keys and logins are not readable inside (credential-masks.ts).
  const masks = credentialMaskArgs(workspace)
  return [
    ...bwrapIsolationArgs(userNamespace),
    ...masks.beforeWorkspace,
    // After --tmpfs /tmp, so a workspace under /tmp is still the host's folder.
    request.workspaceReadOnly ? '--ro-bind' : '--bind',
    workspace,
    workspace,
    ...masks.afterWorkspace,
    '--chdir',
    request.cwd,
    '--info-fd',
    String(INFO_FD),
    '--',
    ...posixArgv(request)
  ]
}

/**
 * Linux: each command in a bubblewrap sandbox — read-only system, read-write workspace, private
 * /tmp, no network, no host processes visible. Timeout and cancel semantics are native's.
 */
export class BwrapRuntime implements Runtime {
  readonly name = 'bwrap'
  private probed?: Promise<BwrapProbe>

  constructor(private readonly options: BwrapRuntimeOptions = {}) {}

  /** Really runs `bwrap … true`; says why not when bwrap cannot sandbox here. */
  static async probe(options: BwrapRuntimeOptions = {}): Promise<ProbeResult> {
    return publicProbe(await probeBwrap(options.bwrapPath ?? 'bwrap'))
  }

  /** The same check, remembered by this instance (the first exec runs it too). */
  async probe(): Promise<ProbeResult> {
    return publicProbe(await this.probeOnce())
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const probe = await this.probeOnce()
    if (!probe.ok) throw new RuntimeUnavailableError(probe.reason)
    let sandboxPid: number | undefined
    const result = await spawnAndCollect(
      {
        runtime: this.name,
        file: this.bwrapPath,
        args: bwrapArgs(request, probe.userNamespace),
        cwd: request.cwd,
        // The host's TMPDIR may point outside the private /tmp, where nothing is writable.
        env: commandEnv({ allowEnv: this.options.allowEnv, modelKeys: this.options.modelKeys, runtime: this.name, tempDir: '/tmp', request: request.env }),
        extraPipes: 1,
        onExtraPipes: ([info]) => readChildPid(info, (pid) => (sandboxPid = pid)),
        // SIGTERM to bwrap itself would kill the sandbox at once (--die-with-parent); the
        // command's own group inside gets the grace period instead.
        gracefulGroups: (bwrapPid) => [sandboxPid ?? bwrapPid]
      },
      request
    )
    // bwrap passes a signalled command on as status 128+n; report it as native does.
    const stopped = (result.timedOut || result.cancelled) && result.exitCode !== null && result.exitCode > 128
    return stopped ? { ...result, exitCode: null, signal: signalFromStatus(result.exitCode) } : result
  }

  private get bwrapPath(): string {
    return this.options.bwrapPath ?? 'bwrap'
  }

  private probeOnce(): Promise<BwrapProbe> {
    this.probed ??= probeBwrap(this.bwrapPath)
    return this.probed
  }
}

type BwrapProbe = { ok: true; userNamespace: boolean; version: string } | { ok: false; reason: string }

function publicProbe(probe: BwrapProbe): ProbeResult {
  if (!probe.ok) return probe
  return { ok: true, detail: `${probe.version}, ${probe.userNamespace ? 'with' : 'without'} a user namespace` }
}

async function probeBwrap(bwrapPath: string): Promise<BwrapProbe> {
  if (process.platform !== 'linux') return { ok: false, reason: 'bwrap (bubblewrap) runs only on Linux.' }
  const withUserNs = await tryBwrap(bwrapPath, true)
  if (!withUserNs.ok) {
    const without = await tryBwrap(bwrapPath, false)
    if (!without.ok) return { ok: false, reason: explainBwrapFailure(bwrapPath, withUserNs.error, without.error) }
  }
  const { execa } = await loadExeca()
  const version = await execa(bwrapPath, ['--version'], { reject: false, timeout: PROBE_TIMEOUT_MS })
  return { ok: true, userNamespace: withUserNs.ok, version: String(version.stdout ?? '').trim() || 'bwrap' }
}

type Attempt = { ok: true } | { ok: false; error: { code?: string; stderr: string; timedOut: boolean } }

async function tryBwrap(bwrapPath: string, userNamespace: boolean): Promise<Attempt> {
  const { execa } = await loadExeca()
  const result = await execa(bwrapPath, [...bwrapIsolationArgs(userNamespace), '--', '/bin/sh', '-c', 'exit 0'], {
    reject: false,
    timeout: PROBE_TIMEOUT_MS,
    stdin: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    extendEnv: false
  })
  if (result.exitCode === 0) return { ok: true }
  return { ok: false, error: { code: result.code, stderr: String(result.stderr ?? '').trim(), timedOut: result.timedOut } }
}

function explainBwrapFailure(
  bwrapPath: string,
  first: { code?: string; stderr: string; timedOut: boolean },
  last: { code?: string; stderr: string; timedOut: boolean }
): string {
  if (first.code === 'ENOENT' || last.code === 'ENOENT') {
    return `bwrap is not installed (${bwrapPath} not found); install bubblewrap, e.g. apt-get install bubblewrap.`
  }
  if (last.timedOut) return `bwrap did not finish a trivial command within ${PROBE_TIMEOUT_MS / 1000} s.`
  const stderr = firstLine(last.stderr || first.stderr)
  if (/namespace|uid map|Operation not permitted|Permission denied/i.test(stderr)) {
    return (
      `bwrap cannot create namespaces (${stderr}): unprivileged user namespaces are disabled here ` +
      '(Ubuntu 24.04+: kernel.apparmor_restrict_unprivileged_userns; Debian: kernel.unprivileged_userns_clone).'
    )
  }
  return `bwrap failed: ${stderr || 'no error message'}.`
}

function readChildPid(info: Readable | undefined, found: (pid: number) => void): void {
  if (!info) return
  let text = ''
  info.setEncoding('utf8')
  info.on('data', (chunk: string) => {
    text += chunk
    const match = /"child-pid"\s*:\s*(\d+)/.exec(text)
    if (match) found(Number(match[1]))
  })
  info.on('error', () => {})
}

function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir)
  } catch {
    return dir
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.replace(/^bwrap:\s*/, '').trim() ?? ''
}
