import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadExeca } from './load-execa'
import { posixArgv } from './command-argv'
import { commandEnv, type CommandEnvOptions } from './command-env'
import { spawnAndCollect } from './spawn-collect'
import { RuntimeUnavailableError, type ExecRequest, type ExecResult, type ProbeResult, type Runtime } from './types'

/** A constant path, never PATH lookup: a planted `sandbox-exec` must not be the sandbox. */
export const SANDBOX_EXEC_PATH = '/usr/bin/sandbox-exec'

/** allowEnv / modelKeys: which variables commands get (command-env.ts). */
export interface SandboxExecRuntimeOptions extends CommandEnvOptions {
  sandboxExecPath?: string
}

export interface SandboxProfilePaths {
  /** Read-write: the workspace (and its real path when it differs). */
  writable: readonly string[]
  /** The command's private temporary folder (TMPDIR). */
  tmpDir: string
}

/** A string literal in SBPL (a Scheme dialect): backslashes and quotes escaped. */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/**
 * The Seatbelt profile: deny by default; the system readable; only the workspace, the private
 * temp folder and a few devices writable; no network of any kind. Same intent as bwrap's.
 */
export function sandboxProfile(paths: SandboxProfilePaths): string {
  const writable = [...new Set([...paths.writable, paths.tmpDir].flatMap(withRealPath))]
  return [
    '(version 1)',
    '(deny default)',
    '; processes: run programs, but touch only processes of this sandbox',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '; the system is readable, as under bwrap --ro-bind / /',
    '(allow file-read*)',
    '(allow file-write*',
    ...writable.map((dir) => `  (subpath ${sbplString(dir)})`),
    ')',
    '(allow file-write-data file-ioctl',
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))',
    '(allow pseudo-tty)',
    '(allow sysctl-read)',
    '(allow ipc-posix-sem)',
    '(allow ipc-posix-shm-read-data ipc-posix-shm-write-data)',
    '(allow user-preference-read)',
    '; name lookups for the user database (id, ls -l) and logging; nothing that reaches the network',
    '(allow mach-lookup',
    '  (global-name "com.apple.system.opendirectoryd.libinfo")',
    '  (global-name "com.apple.system.opendirectoryd.membership")',
    '  (global-name "com.apple.system.logger")',
    '  (global-name "com.apple.logd")',
    '  (global-name "com.apple.bsd.dirhelper")',
    '  (global-name "com.apple.system.notification_center"))',
    '(deny network*)',
    ''
  ].join('\n')
}

/**
 * macOS: each command under `sandbox-exec -p <profile>` (Seatbelt). Timeout and cancel semantics
 * are native's; child processes inherit the profile.
 */
export class SandboxExecRuntime implements Runtime {
  readonly name = 'sandbox-exec'
  private probed?: Promise<ProbeResult>

  constructor(private readonly options: SandboxExecRuntimeOptions = {}) {}

  static async probe(options: SandboxExecRuntimeOptions = {}): Promise<ProbeResult> {
    if (process.platform !== 'darwin') return { ok: false, reason: 'sandbox-exec (Seatbelt) exists only on macOS.' }
    const file = options.sandboxExecPath ?? SANDBOX_EXEC_PATH
    if (!fs.existsSync(file)) return { ok: false, reason: `${file} is missing.` }
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-probe-'))
    try {
      const profile = sandboxProfile({ writable: [], tmpDir })
      const { execa } = await loadExeca()
      const result = await execa(file, ['-p', profile, '/usr/bin/true'], { reject: false, timeout: 5_000, stdin: 'ignore' })
      if (result.exitCode === 0) return { ok: true }
      return { ok: false, reason: `sandbox-exec failed: ${String(result.stderr ?? '').split('\n')[0] || result.shortMessage}` }
    } finally {
      fs.rmSync(tmpDir, { recursive: true, force: true })
    }
  }

  async probe(): Promise<ProbeResult> {
    this.probed ??= SandboxExecRuntime.probe(this.options)
    return this.probed
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const probe = await this.probe()
    if (!probe.ok) throw new RuntimeUnavailableError(probe.reason)
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-cmd-'))
    try {
      const profile = sandboxProfile({ writable: request.workspaceReadOnly ? [] : [request.workspace ?? request.cwd], tmpDir })
      return await spawnAndCollect(
        {
          runtime: this.name,
          file: this.options.sandboxExecPath ?? SANDBOX_EXEC_PATH,
          args: ['-p', profile, ...posixArgv(request)],
          cwd: request.cwd,
          env: commandEnv({ allowEnv: this.options.allowEnv, modelKeys: this.options.modelKeys, runtime: this.name, tempDir: tmpDir, request: request.env })
        },
        request
      )
    } finally {
      fs.rmSync(tmpDir, { recursive: true, force: true })
    }
  }
}

/** Seatbelt matches real paths (/tmp is /private/tmp on macOS): allow both spellings. */
function withRealPath(dir: string): string[] {
  try {
    const real = fs.realpathSync(dir)
    return real === dir ? [dir] : [dir, real]
  } catch {
    return [dir]
  }
}
