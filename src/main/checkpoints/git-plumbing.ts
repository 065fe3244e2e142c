import { spawn } from 'node:child_process'

/**
 * Runs git against the shadow repository only (docs/checkpoints.md, "Never the user's git"):
 * GIT_DIR and GIT_WORK_TREE are always set, so git never discovers the workspace's own `.git`;
 * no system or global config is read, so a user's hooks, filters or fsmonitor never run; and no
 * GIT_* variable of the caller's environment reaches it.
 */
export interface GitTarget {
  gitDir: string
  workTree: string
  /** An index of its own: a second work tree (a staged run's copy) shares the objects, not the index. */
  indexFile?: string
}

export interface GitResult {
  code: number
  stdout: Buffer
  stderr: string
}

export class GitMissingError extends Error {
  constructor() {
    super('git is not installed')
    this.name = 'GitMissingError'
  }
}

export function gitEnvironment(target: GitTarget, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('GIT_')) continue
    env[key] = value
  }
  return {
    ...env,
    GIT_DIR: target.gitDir,
    GIT_WORK_TREE: target.workTree,
    ...(target.indexFile ? { GIT_INDEX_FILE: target.indexFile } : {}),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    // Fixed identity and dates come from the arguments, not the user's config.
    GIT_AUTHOR_NAME: 'DeskClaw',
    GIT_AUTHOR_EMAIL: 'checkpoints@deskclaw.invalid',
    GIT_COMMITTER_NAME: 'DeskClaw',
    GIT_COMMITTER_EMAIL: 'checkpoints@deskclaw.invalid',
    LC_ALL: 'C',
    ...extra
  }
}

export function runGit(
  target: GitTarget,
  args: readonly string[],
  options: { input?: Buffer | string; env?: Record<string, string>; allowFailure?: boolean } = {}
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd: target.workTree,
      env: gitEnvironment(target, options.env),
      stdio: ['pipe', 'pipe', 'pipe']
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new GitMissingError() : error)
    })
    child.on('close', (code) => {
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }
      if (result.code !== 0 && !options.allowFailure) {
        reject(new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`))
      } else resolve(result)
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

/** Splits git's `-z` output into its NUL-terminated records. */
export function splitNul(output: Buffer): string[] {
  const text = output.toString('utf8')
  const parts = text.split('\0')
  if (parts.at(-1) === '') parts.pop()
  return parts
}
