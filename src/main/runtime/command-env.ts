import { SANDBOX_PATH } from './docker-container-spec'

/**
 * The environment a command gets is an allowlist, not a blocklist (docs/runtimes.md, "The
 * environment allowlist"): a small known set taken from the app's environment, the names the user
 * added in Settings, what the runtime itself sets — and nothing else. A prompt-injected
 * `env | curl …` finds no credential unless the user handed that one over by name, and never the
 * model's key.
 */

/** The runtimes, as the table distinguishes them: the three on the host share one column. */
export type CommandEnvRuntime = 'native' | 'bwrap' | 'sandbox-exec' | 'docker'

/**
 * Where one allowed variable's value comes from.
 * - `app`: the app's own value, when it has one;
 * - `{ fixed }`: always this value (the app's is ignored);
 * - `runtime-temp`: the runtime's temp folder (native: the app's own TMPDIR);
 * - `none`: not passed on this runtime.
 */
export type AllowedValue = 'app' | 'runtime-temp' | 'none' | { fixed: string }

export interface AllowedVariable {
  name: string
  why: string
  /** native, bwrap, sandbox-exec: the same host. */
  host: AllowedValue
  /** Inside the container the host's paths and locales mean nothing, so docker sets its own. */
  docker: AllowedValue
  /** Only on this platform (Windows' own variables; cmd.exe does not start without them). */
  platform?: NodeJS.Platform
}

/** The locale categories of POSIX and glibc, named one by one: a pattern `LC_*` would let `LC_TOKEN` through. */
export const LOCALE_CATEGORIES = [
  'LC_ALL',
  'LC_ADDRESS',
  'LC_COLLATE',
  'LC_CTYPE',
  'LC_IDENTIFICATION',
  'LC_MEASUREMENT',
  'LC_MESSAGES',
  'LC_MONETARY',
  'LC_NAME',
  'LC_NUMERIC',
  'LC_PAPER',
  'LC_TELEPHONE',
  'LC_TIME'
] as const

/** Windows' own: cmd.exe and most programs fail or misbehave without them; paths and names only. */
const WINDOWS_ESSENTIALS: ReadonlyArray<[string, string]> = [
  ['SystemRoot', 'the Windows folder: cmd.exe and DLL loading need it'],
  ['SystemDrive', 'the Windows drive'],
  ['windir', 'the Windows folder, older spelling'],
  ['ComSpec', 'the command interpreter cmd.exe'],
  ['PATHEXT', 'which file extensions run as programs'],
  ['TEMP', 'the temp folder'],
  ['TMP', 'the temp folder'],
  ['USERPROFILE', 'the home folder'],
  ['USERNAME', 'the user name']
]

/**
 * Every variable a command may get without the user asking, and why. SHELL, DISPLAY, proxies,
 * XDG_* and DBUS_SESSION_BUS_ADDRESS are left out on purpose (docs/runtimes.md says why).
 */
export const COMMAND_ENV_ALLOWLIST: readonly AllowedVariable[] = [
  { name: 'PATH', why: 'where programs are found', host: 'app', docker: { fixed: SANDBOX_PATH } },
  { name: 'HOME', why: 'where programs look for per-user settings (git, npm, pip)', host: 'app', docker: { fixed: '/tmp' } },
  {
    name: 'TMPDIR',
    why: 'where temporary files go: the runtime’s private temp folder (native: the app’s own)',
    host: 'runtime-temp',
    docker: { fixed: '/tmp' }
  },
  { name: 'LANG', why: 'the locale: message language and character encoding', host: 'app', docker: { fixed: 'C.UTF-8' } },
  // The image has only C.UTF-8: a host locale it lacks would turn UTF-8 off inside.
  { name: 'LANGUAGE', why: 'the preferred message languages (GNU gettext)', host: 'app', docker: 'none' },
  ...LOCALE_CATEGORIES.map(
    (name): AllowedVariable => ({ name, why: 'one category of the locale (POSIX)', host: 'app', docker: 'none' })
  ),
  { name: 'TERM', why: 'the terminal type: programs choose colours and line editing by it', host: 'app', docker: 'app' },
  { name: 'TZ', why: 'the time zone of dates and log times', host: 'app', docker: 'app' },
  { name: 'USER', why: 'the user name (whoami without a lookup)', host: 'app', docker: 'app' },
  { name: 'LOGNAME', why: 'the user name, POSIX spelling', host: 'app', docker: 'app' },
  ...WINDOWS_ESSENTIALS.map(
    ([name, why]): AllowedVariable => ({ name, why, host: 'app', docker: 'none', platform: 'win32' })
  )
]

/** The model's key, which never reaches a command, whatever the user listed. */
export interface ModelKeys {
  /** The variables the key is read from (settings.apiKeyEnv or the provider's conventional one). */
  names: readonly string[]
  /** The keys the app holds (a CLI key, keys pasted in Settings): a variable holding one is dropped under any name. */
  values: ReadonlyArray<string | undefined>
}

export interface CommandEnvOptions {
  /** Names the user added (Settings → "Environment variables commands may see", `--allow-env`). */
  allowEnv?: readonly string[]
  /** Read at each command, so a changed key or key variable applies at once. */
  modelKeys?: () => ModelKeys
}

export interface CommandEnvInput extends CommandEnvOptions {
  runtime: CommandEnvRuntime
  /** The runtime's private temp folder (bwrap: /tmp, sandbox-exec: a folder per command). */
  tempDir?: string
  /** What the request adds (ExecRequest.env). */
  request?: Record<string, string>
  /** Default process.env. */
  appEnv?: NodeJS.ProcessEnv
  /** Default process.platform. */
  platform?: NodeJS.Platform
}

/** A key shorter than this is not looked for inside other values: it would match by chance. */
const MIN_KEY_LENGTH_IN_VALUES = 8

/** A valid variable name (what Settings accepts). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The environment one command gets: the allowlist, the user's names, the runtime's own values, the request's. */
export function commandEnv(input: CommandEnvInput): Record<string, string> {
  const appEnv = input.appEnv ?? process.env
  const platform = input.platform ?? process.platform
  const lookup = appEnvLookup(appEnv, platform)
  const env: Record<string, string> = {}
  for (const variable of COMMAND_ENV_ALLOWLIST) {
    if (variable.platform !== undefined && variable.platform !== platform) continue
    const rule = input.runtime === 'docker' ? variable.docker : variable.host
    const value = valueOf(rule, lookup(variable.name), input)
    if (value !== undefined) env[variable.name] = value
  }
  const fixedNames = new Set(COMMAND_ENV_ALLOWLIST.filter((v) => isRuntimeSet(input.runtime === 'docker' ? v.docker : v.host)).map((v) => v.name))
  for (const name of input.allowEnv ?? []) {
    // The runtime's own PATH, HOME and TMPDIR stay: the sandbox depends on them.
    if (fixedNames.has(name) || !ENV_NAME_PATTERN.test(name)) continue
    const value = lookup(name)
    if (value !== undefined) env[name] = value
  }
  Object.assign(env, input.request)
  return withoutModelKeys(env, input.modelKeys?.(), platform)
}

/** `env` as docker's `NAME=value` list. */
export function envList(env: Record<string, string>): string[] {
  return Object.entries(env).map(([name, value]) => `${name}=${value}`)
}

function valueOf(rule: AllowedValue, appValue: string | undefined, input: CommandEnvInput): string | undefined {
  if (rule === 'none') return undefined
  if (rule === 'app') return appValue
  if (rule === 'runtime-temp') return input.tempDir ?? appValue
  return rule.fixed
}

function isRuntimeSet(rule: AllowedValue): boolean {
  return rule === 'runtime-temp' || typeof rule === 'object'
}

function withoutModelKeys(env: Record<string, string>, keys: ModelKeys | undefined, platform: NodeJS.Platform): Record<string, string> {
  if (!keys) return env
  const values = keys.values.filter((value): value is string => typeof value === 'string' && value.trim().length >= MIN_KEY_LENGTH_IN_VALUES)
  const clean: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (keys.names.some((keyName) => sameName(name, keyName.trim(), platform))) continue
    if (values.some((key) => value.includes(key.trim()))) continue
    clean[name] = value
  }
  return clean
}

/** Windows variable names are case-insensitive (`Path`, `PATH`). */
function sameName(a: string, b: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? a.toUpperCase() === b.toUpperCase() : a === b
}

function appEnvLookup(appEnv: NodeJS.ProcessEnv, platform: NodeJS.Platform): (name: string) => string | undefined {
  if (platform !== 'win32') return (name) => (Object.prototype.hasOwnProperty.call(appEnv, name) ? appEnv[name] : undefined)
  const byUpper = new Map(Object.entries(appEnv).map(([name, value]) => [name.toUpperCase(), value]))
  return (name) => byUpper.get(name.toUpperCase())
}
