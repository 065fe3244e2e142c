import path from 'node:path'

/**
 * The path guardian (docs/risk.md): which paths hold secrets (ask even to read) and which writes
 * change how the user's tools behave. Lexical on purpose — it runs on every shell word and must
 * stay fast; file tools resolve symlinks before they ask (workspace/confineToWorkspace).
 */
export interface PathContext {
  home: string
  workspace: string
}

/** Under the home folder: credentials, keys, browser profiles, keychains. */
const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.config/gcloud',
  '.config/gh',
  '.docker/config.json',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.password-store',
  '.pgpass',
  '.my.cnf',
  '.local/share/keyrings',
  '.bash_history',
  '.zsh_history',
  'Library/Keychains',
  'Library/Cookies',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.mozilla',
  '.thunderbird',
  'snap/firefox',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Safari',
  'AppData/Local/Google/Chrome',
  'AppData/Roaming/Mozilla',
  'AppData/Local/Microsoft/Edge',
  'AppData/Roaming/Microsoft/Credentials',
  'AppData/Roaming/Microsoft/Protect'
]

const SYSTEM_SECRETS = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh', '/root', '/var/db/sudo', '/private/etc/master.passwd', '/dev/mem', '/dev/kmem']

/** Names that hold secrets wherever they are. */
const SECRET_NAME = /^(\.env(\..+)?|\.envrc|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.+\.(pem|p12|pfx|kdbx|keychain(-db)?)|\.git-credentials|\.netrc|\.npmrc|\.pgpass|credentials(\.json)?|login\.keychain.*|logins\.json|key[34]\.db|Cookies|Login Data)$/

/** Writes that change what runs later: git hooks and config, shell start-up files, our own rules. */
const PROTECTED_WRITE = /(^|\/)(\.git\/(hooks|config)(\/|$)|\.deskclaw(\/|$)|\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|inputrc)$|\.config\/(fish|autostart)\/|\.vscode\/(settings|tasks)\.json$|\.ssh\/)/

export function normalise(p: string, ctx: PathContext, cwd = ctx.workspace): string {
  let value = p.replace(/\\/g, '/')
  if (value === '~' || value.startsWith('~/')) value = ctx.home + value.slice(1)
  if (/^[A-Za-z]:\//.test(value)) return path.posix.normalize(value)
  return path.posix.resolve(cwd, value)
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`)
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
  for (const rel of HOME_SECRETS) {
    const secret = `${ctx.home}/${rel}`
    if (within(target, secret) || (target !== absolute && within(secret, target) && target !== ctx.home)) {
      return `${displayPath(secret, ctx)} holds credentials or private data`
    }
  }
  for (const secret of SYSTEM_SECRETS) {
    if (within(target, secret)) return `${secret} holds credentials or private data`
  }
  const base = path.posix.basename(absolute)
  if (SECRET_NAME.test(base) && !/\.(example|sample|template)$/.test(base)) return `${base} usually holds secrets`
  return null
}

/** Why writing this path is sensitive (changes future behaviour), or null. */
export function protectedWriteReason(absolute: string, ctx: PathContext): string | null {
  const rel = within(absolute, ctx.home) ? absolute.slice(ctx.home.length) : absolute
  if (PROTECTED_WRITE.test(rel) || PROTECTED_WRITE.test(absolute)) {
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
