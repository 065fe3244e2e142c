import { lstatSync, readdirSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { HOME_CREDENTIAL_LOCATIONS as HOME_SECRETS } from '../secrets/credential-locations'
import { isSecretName, SECRET_DIR, SECRET_NAME } from '../secrets/secret-names'
import { secretContentReason, startSecretContentJudgement } from './secret-files'

export { isSecretName }

/**
 * The path guardian (docs/risk.md): which paths hold secrets (ask even to read) and which writes
 * change how the user's tools behave. Lexical on purpose — it runs on every shell word and must
 * stay fast; file tools resolve symlinks before they ask (workspace/confineToWorkspace).
 */
export interface PathContext {
  home: string
  workspace: string
}

const SYSTEM_SECRETS = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh', '/root', '/var/db/sudo', '/private/etc/master.passwd', '/dev/mem', '/dev/kmem']

/** Other processes' environments and memory: secrets of whatever runs. */
const PROC_SECRET = /^\/proc\/[^/]+\/(environ|mem|cmdline|maps|fd(\/|$)|root(\/|$)|cwd(\/|$))/

/**
 * Public system files a read outside the workspace may touch without asking (docs/risk.md, "Reads
 * outside the workspace"): what the OS says about itself, shared data and headers. Everything
 * else outside the workspace asks to read: no list knows every credential file.
 */
const PUBLIC_READS = [
  /^\/usr\/(share|include|lib|lib64|libexec|local\/share|local\/include)(\/|$)/,
  /^\/usr\/(local\/)?s?bin(\/|$)/,
  /^\/s?bin(\/|$)/,
  /^\/etc\/(os-release|lsb-release|debian_version|redhat-release|alpine-release|arch-release|fedora-release|issue|issue\.net|hostname|timezone|localtime|shells|locale\.conf|locale\.gen|papersize)$/,
  /^\/proc\/(cpuinfo|meminfo|version|loadavg|uptime|stat|swaps|partitions|mounts|filesystems|diskstats|devices|modules|vmstat|zoneinfo)$/,
  /^\/sys\/(class|devices|bus|block|module|kernel\/mm|fs\/cgroup)(\/|$)/,
  /^\/dev\/(null|zero|random|urandom|stdin|stdout|stderr|tty)$/,
  /^\/System\/Library\/CoreServices\/SystemVersion\.plist$/
]

/** Writes that change what runs later: git hooks and config, shell start-up files, our own rules. */
const PROTECTED_WRITE = /(^|\/)(\.git\/(hooks|config)(\/|$)|\.deskclaw(\/|$)|\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|inputrc)$|\.config\/(fish|autostart)\/|\.vscode\/(settings|tasks)\.json$|\.ssh\/)/

export function normalise(p: string, ctx: PathContext, cwd = ctx.workspace): string {
  let value = p.replace(/\\/g, '/')
  if (value.startsWith('~')) value = expandTilde(value, ctx, cwd)
  if (/^[A-Za-z]:\//.test(value)) return path.posix.normalize(value)
  return path.posix.resolve(cwd, value)
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`)
}

/** The same, ignoring case: macOS and Windows file systems are case-insensitive, so `~/.SSH` is `~/.ssh`. */
function withinIgnoringCase(child: string, parent: string): boolean {
  return within(child.toLowerCase(), parent.toLowerCase())
}

/** The home secrets as lower-case absolute paths, computed once per home folder. */
let homeSecretsFor: { home: string; lowerHome: string; paths: string[] } | null = null

function homeSecretPaths(home: string): string[] {
  if (homeSecretsFor?.home !== home) homeSecretsFor = { home, lowerHome: `${home.toLowerCase()}/`, paths: HOME_SECRETS.map((rel) => `${home}/${rel}`.toLowerCase()) }
  return homeSecretsFor.paths
}

/** Strips a glob tail: `~/.ssh/*` is about `~/.ssh`. */
function globRoot(p: string): string {
  const index = p.search(/[*?[]/)
  if (index < 0) return p
  const slash = p.lastIndexOf('/', index)
  return slash <= 0 ? (p.startsWith('/') ? '/' : '.') : p.slice(0, slash)
}

/** Why reading this path exposes secrets, or null. `absolute` must come from normalise(). */
export function secretPathReason(absolute: string, ctx: PathContext): string | null {
  const target = globRoot(absolute)
  const lowerTarget = target.toLowerCase()
  const globbed = target !== absolute && target !== ctx.home
  const secrets = homeSecretPaths(ctx.home)
  // Every home secret is under home: a path elsewhere (and no glob that could reach into home) skips the list.
  const nearHome = globbed || lowerTarget.startsWith(homeSecretsFor!.lowerHome)
  for (let i = 0; nearHome && i < secrets.length; i++) {
    const secret = secrets[i]!
    if (within(lowerTarget, secret) || (globbed && within(secret, lowerTarget))) {
      return `${displayPath(`${ctx.home}/${HOME_SECRETS[i]}`, ctx)} holds credentials or private data`
    }
  }
  for (const secret of SYSTEM_SECRETS) {
    if (withinIgnoringCase(target, secret)) return `${secret} holds credentials or private data`
  }
  if (PROC_SECRET.test(target) || /^\/proc\/[^/]*[*?[]/.test(absolute)) return 'a process\'s environment or memory holds its secrets'
  const windows = windowsSecretReason(absolute)
  if (windows) return windows
  const base = path.posix.basename(absolute)
  if (isSecretName(base)) return `${base} usually holds secrets`
  // Folder names count only below the workspace (a workspace kept under a "secrets" folder is the user's choice).
  const below = within(absolute, ctx.workspace) ? absolute.slice(ctx.workspace.length) : absolute
  const secretDir = path.posix.dirname(below).split('/').find((part) => SECRET_DIR.test(part))
  if (secretDir) return `${secretDir} usually holds secrets`
  return null
}

/**
 * Windows credential stores and histories by any spelling (docs/risk.md, item 7): `%APPDATA%`,
 * `%LOCALAPPDATA%`, `$env:APPDATA` or the folders they stand for, in any case.
 */
const WINDOWS_SECRET =
  /(^|\/)(%appdata%|\$env:appdata|appdata\/roaming)\/microsoft\/(credentials|protect|vault|crypto|windows\/powershell\/psreadline)(\/|$)|(^|\/)(%localappdata%|\$env:localappdata|appdata\/local)\/(microsoft\/(credentials|vault|protect|edge\/user data)|google\/chrome\/user data|bravesoftware)(\/|$)|consolehost_history\.txt$/

export function windowsSecretReason(absolute: string): string | null {
  return WINDOWS_SECRET.test(absolute.toLowerCase().replace(/\\/g, '/')) ? 'a Windows credential store or command history holds secrets' : null
}

/**
 * Another machine by its path (docs/risk.md, item 7): a UNC path (`\\\\host\\share`, `//host/share`)
 * or an automount of other hosts (`/net/HOST`, `/Network/Servers`, `/afs`). Reading it is network.
 */
export function networkPathReason(written: string, absolute?: string): string | null {
  if (/^(\/\/|\\\\)[^/\\]/.test(written)) return `${written} is on another machine (a UNC path)`
  const target = absolute ?? written
  if (/^\/(net|Network|afs|smb|nfs)\/[^/]/i.test(target) || /^\/Volumes\/[^/]+@/.test(target)) return `${target} is on another machine (a network automount)`
  return null
}

/** Public system files and folders: reading them outside the workspace does not ask. */
export function isPublicRead(absolute: string): boolean {
  return PUBLIC_READS.some((pattern) => pattern.test(absolute))
}

/**
 * The path as the file system will resolve it: symlinks followed on the longest prefix that exists
 * (a link inside the workspace that points out of it is outside). Lexical when nothing exists.
 */
export function resolveReal(absolute: string): string {
  const cached = realCache.get(absolute)
  if (cached !== undefined) return cached
  let resolved = absolute
  // One lstat per component, shared with the file-object check (statsOf): a name that is not a link resolves
  // as its folder does; a link resolves natively; a missing or dangling one is judged as written below its folder.
  if (absolute !== '/' && absolute !== knownReal && absolute.startsWith('/')) {
    const stats = statsOf(absolute)
    let linked: string | null = null
    if (stats?.isSymbolicLink()) {
      try {
        linked = realpathSync.native(absolute)
      } catch {
        // dangling or unreadable: nothing can be read through it
      }
    }
    const slash = absolute.lastIndexOf('/')
    const parent = slash <= 0 ? '/' : absolute.slice(0, slash)
    resolved = linked ?? (parent === '/' ? absolute : `${resolveReal(parent)}/${absolute.slice(slash + 1)}`)
  }
  if (realCache.size > 4_096) realCache.clear()
  realCache.set(absolute, resolved)
  return resolved
}

/**
 * Real paths are cached for one judgement only: the file system may change between two commands,
 * never within the microseconds of one assessment. The engine starts each assessment here.
 */
const realCache = new Map<string, string>()

/** A folder already known to be its own real path for this judgement (the workspace): no need to ask the file system. */
let knownReal: string | null = null

/** lstat results for one judgement, like the real paths; a missing file is null (no exception is built for it). */
const statsCache = new Map<string, import('node:fs').Stats | null>()

function statsOf(real: string): import('node:fs').Stats | null {
  let stats = statsCache.get(real)
  if (stats === undefined) {
    try {
      stats = lstatSync(real, { throwIfNoEntry: false }) ?? null
    } catch {
      stats = null // unreadable (EACCES, ENOTDIR): nothing can be opened there either
    }
    if (statsCache.size > 4_096) statsCache.clear()
    statsCache.set(real, stats)
  }
  return stats
}

export function startPathJudgement(realWorkspace?: string): void {
  realCache.clear()
  statsCache.clear()
  startSecretContentJudgement()
  knownReal = realWorkspace ?? null
}

const MAX_GLOB_MATCHES = 256

/**
 * What a glob would match, as bash expands it (`*`, `?`, `[…]`; a leading dot only by a pattern
 * that starts with one). `null` when it matches nothing or more than can be judged, so the caller
 * judges the pattern itself.
 */
export function expandGlob(absolute: string): string[] | null {
  const parts = absolute.split('/').slice(1)
  let paths = ['']
  for (const part of parts) {
    if (!/[*?[]/.test(part)) {
      paths = paths.map((p) => `${p}/${part}`)
      continue
    }
    const pattern = globToRegExp(part)
    const next: string[] = []
    for (const dir of paths) {
      let names: string[]
      try {
        names = readdirSync(dir === '' ? '/' : dir)
      } catch {
        continue
      }
      for (const name of names) {
        if (name.startsWith('.') && !part.startsWith('.')) continue
        if (pattern.test(name)) next.push(`${dir}/${name}`)
      }
      if (next.length > MAX_GLOB_MATCHES) return null
    }
    paths = next
    if (paths.length === 0) return null
  }
  return paths
}

/** A shell glob (`*`, `?`, `[…]`) as a whole-string pattern; `*` crosses `/` here, as git's pathspecs do too. */
export function globToRegExp(glob: string, flags = ''): RegExp {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === '*') source += '.*'
    else if (c === '?') source += '.'
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2)
      if (close < 0) source += '\\['
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')
        source += `[${body}]`
        i = close
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&')
  }
  return new RegExp(`^${source}$`, flags)
}

const WALK_LIMIT = 5_000
const WALK_SKIP = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', 'target', 'dist'])

/**
 * A secret-shaped file or folder under `dir`, or a link that leads out of the workspace: what a
 * recursive search (`grep -r`, `rg`, `find -exec cat`) would read. Bounded: past the limit the
 * search is treated as reaching one (fail closed). `hidden: false` skips dot-names (rg's default);
 * `name` keeps only entries a find -name pattern matches; `follow: false` skips symlinks (rg's default).
 */
export function secretUnder(dir: string, ctx: PathContext, options: { hidden: boolean; name?: RegExp; follow?: boolean }): string | null {
  const queue = [dir]
  let seen = 0
  while (queue.length > 0) {
    const current = queue.shift()!
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(current, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      if (++seen > WALK_LIMIT) return `${displayPath(dir, ctx)} (too many files to check)`
      if (!options.hidden && entry.name.startsWith('.')) continue
      const full = `${current}/${entry.name}`
      if (entry.isSymbolicLink()) {
        // A walker that follows no links (rg by default) never reads through one.
        if (options.follow === false) continue
        const real = resolveReal(full)
        if (!within(real, ctx.workspace) || secretPathReason(real, ctx)) return displayPath(full, ctx)
        continue
      }
      if (entry.isDirectory()) {
        if (SECRET_DIR.test(entry.name)) return displayPath(full, ctx)
        // `.git` is not walked here, but a recursive grep reads its config: a token in a remote URL is a secret.
        if (entry.name === '.git' && secretContentReason(`${full}/config`, { anyFile: false })) return displayPath(`${full}/config`, ctx)
        if (!WALK_SKIP.has(entry.name)) queue.push(full)
        continue
      }
      if (options.name && !options.name.test(entry.name)) continue
      if (isSecretName(entry.name)) return displayPath(full, ctx)
      if (secretContentReason(full, { anyFile: false })) return displayPath(full, ctx)
    }
  }
  return null
}

/** A find -name / -iname pattern as a regular expression (what names it keeps). */
export function findNamePattern(glob: string, ignoreCase: boolean): RegExp {
  const source = globToRegExp(glob).source
  return new RegExp(source, ignoreCase ? 'i' : '')
}

/** What a command does with a path: writes it, or reads its contents, only its name, or neither. */
export interface PathAccess {
  writes: boolean
  reads: 'contents' | 'names' | 'none'
}

export interface PathJudgement {
  /** The path the file system will use (links followed). */
  real: string
  finding: PathFinding | null
}

export interface PathFinding {
  rule: 'path.sensitive' | 'path.secret-content' | 'path.outside-workspace' | 'path.outside-read' | 'path.network' | FileObjectRule
  message: string
}

/**
 * The one judgement of a path a command touches (docs/risk.md, items 7 and 8): secrets ask by the
 * real path or the one written; writes outside the workspace ask; reading contents outside it asks
 * unless the file is public.
 */
export function judgePath(absolute: string, ctx: PathContext, access: PathAccess): PathJudgement {
  const real = resolveReal(absolute)
  const network = networkPathReason(absolute, absolute) ?? (real === absolute ? null : networkPathReason(real, real))
  if (network) return { real, finding: { rule: 'path.network', message: `${network}: reaching it is network access.` } }
  const judge = access.writes ? protectedWriteReason : secretPathReason
  const secret = judge(real, ctx) ?? (real === absolute ? null : judge(absolute, ctx))
  if (secret) return { real, finding: { rule: 'path.sensitive', message: `${secret}.` } }
  const inside = within(real, ctx.workspace)
  if (access.writes && !inside && !real.startsWith('/tmp/') && !real.startsWith('/dev/')) {
    return { real, finding: { rule: 'path.outside-workspace', message: `Changes ${displayPath(real, ctx)}, outside the workspace.` } }
  }
  if (!access.writes && access.reads === 'contents' && !inside && !isPublicRead(real)) {
    const via = real !== absolute ? ` (through a link: ${displayPath(absolute, ctx)})` : ''
    return { real, finding: { rule: 'path.outside-read', message: `Reads ${displayPath(real, ctx)}${via}, outside the workspace.` } }
  }
  // A name that says nothing may still hold a credential (docs/risk.md, "Secrets"): `.git/config`, `.npmrc`, a token in code.
  if (!access.writes && access.reads === 'contents') {
    const content = secretContentReason(real, { anyFile: true })
    if (content) return { real, finding: { rule: 'path.secret-content', message: `${displayPath(real, ctx)} ${content}.` } }
  }
  // Only opening the file matters: listing a name or printing it neither reads nor blocks.
  const opens = access.writes || access.reads === 'contents'
  return { real, finding: opens && !isHarmlessDevice(absolute) ? fileObjectFinding(real, ctx) : null }
}

export type FileObjectRule = 'path.hard-link' | 'path.special-file'

/** The devices that are always the same harmless stream (docs/risk.md): reading or writing them has no effect. */
const HARMLESS_DEVICE = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/[012])$/

export function isHarmlessDevice(absolute: string): boolean {
  return HARMLESS_DEVICE.test(absolute)
}

/**
 * What the object at a real path is, where its name does not say (docs/risk.md, "Redirections,
 * hard links, special files"): a regular file with other hard links may be a file outside the
 * workspace under another name; a FIFO, socket or device can block or act when opened.
 */
export function fileObjectFinding(real: string, ctx: PathContext): { rule: FileObjectRule; message: string } | null {
  if (isHarmlessDevice(real)) return null
  const stats = statsOf(real)
  if (!stats) return null // nothing there yet: a file about to be created has no other name
  const shown = displayPath(real, ctx)
  if (stats.isFile()) {
    if (stats.nlink <= 1) return null
    return { rule: 'path.hard-link', message: `${shown} has other hard links: another name for the same file may be outside the workspace.` }
  }
  const kind = stats.isFIFO() ? 'a FIFO' : stats.isSocket() ? 'a socket' : stats.isCharacterDevice() ? 'a character device' : stats.isBlockDevice() ? 'a block device' : null
  if (!kind) return null
  return { rule: 'path.special-file', message: `${shown} is ${kind}: reading a FIFO or device can block or have effects.` }
}

/** Why writing this path is sensitive (changes future behaviour), or null. */
export function protectedWriteReason(absolute: string, ctx: PathContext): string | null {
  const rel = within(absolute, ctx.home) ? absolute.slice(ctx.home.length) : absolute
  if (PROTECTED_WRITE.test(rel.toLowerCase()) || PROTECTED_WRITE.test(absolute.toLowerCase())) {
    return `${displayPath(absolute, ctx)} changes what runs later (hooks, start-up files, rules)`
  }
  return secretPathReason(absolute, ctx)
}

export function isInside(absolute: string, root: string): boolean {
  return within(absolute, root)
}

export function displayPath(absolute: string, ctx: PathContext): string {
  if (within(absolute, ctx.home)) return `~${absolute.slice(ctx.home.length)}`
  return absolute
}

/** Looks like a path worth checking (bare words such as `-la` or `TODO` are not). */
export function looksLikePath(word: string): boolean {
  return word.includes('/') || word.startsWith('~') || word.startsWith('.') || SECRET_NAME.test(word)
}

/** `~`, `~/x`, `~+` (the current folder), `~-` and `~user/x` as bash expands them. */
export function expandTilde(value: string, ctx: PathContext, cwd: string): string {
  if (value === '~' || value.startsWith('~/')) return ctx.home + value.slice(1)
  if (value === '~+' || value.startsWith('~+/')) return cwd + value.slice(2)
  if (value === '~-' || value.startsWith('~-/')) return ctx.home + value.slice(2) // OLDPWD: unknown; home is the likely one
  const user = /^~([a-z_][a-z0-9_.-]*)(\/.*)?$/i.exec(value)
  if (user) return `${path.posix.dirname(ctx.home)}/${user[1]}${user[2] ?? ''}`
  return value
}
