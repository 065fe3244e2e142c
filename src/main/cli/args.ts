import { parseArgs, type ParseArgsConfig } from 'node:util'
import { resolve } from 'node:path'
import { parseLearnArgs, type LearnArgs } from './learn-args'
import { AutonomySchema, ImageInputSchema, ProviderKindSchema, RuntimeChoiceSchema, ToolDescriptionsSchema, type Autonomy, type Settings } from '../../shared'

import { UsageError } from './usage-error'

export { UsageError }

export type ApproveMode = 'ask' | 'allow' | 'deny'

/** Flags shared by every command that builds the app. */
const commonOptions = {
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
  workspace: { type: 'string' },
  autonomy: { type: 'string' },
  'max-iterations': { type: 'string' },
  runtime: { type: 'string' },
  'docker-image': { type: 'string' },
  'allow-env': { type: 'string', multiple: true },
  'image-input': { type: 'string' },
  'tool-descriptions': { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' }
} as const

export interface CommonArgs {
  overrides: Partial<Settings>
  dataDir?: string
  help: boolean
}

export interface RunArgs extends CommonArgs {
  prompt: string
  json: boolean
  approve: ApproveMode
  conversationId?: string
}

export interface WebArgs extends CommonArgs {
  host: string
  port: number
}

export function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parse(argv, {
    ...commonOptions,
    json: { type: 'boolean' },
    approve: { type: 'string' },
    conversation: { type: 'string' }
  })
  const common = toCommon(values)
  const prompt = positionals.join(' ').trim()
  if (!prompt && !common.help) throw new UsageError('run needs a PROMPT, e.g. deskclaw run "list the files here"')
  const approve = (values.approve as string | undefined) ?? 'ask'
  if (approve !== 'ask' && approve !== 'allow' && approve !== 'deny') {
    throw new UsageError(`--approve must be ask, allow or deny (got "${approve}")`)
  }
  return {
    ...common,
    prompt,
    json: Boolean(values.json),
    approve,
    conversationId: values.conversation as string | undefined
  }
}

export type AuditAction = 'verify' | 'list'

export interface AuditArgs {
  /** Undefined only with --help. */
  action?: AuditAction
  dataDir?: string
  json: boolean
  /** Rows `audit list` prints. */
  limit: number
  help: boolean
}

export const AUDIT_LIST_DEFAULT_LIMIT = 20
const AUDIT_LIST_MAX_LIMIT = 100_000

/** `audit verify|list`: reads the database only, so it takes none of the model or agent options. */
export function parseAuditArgs(argv: string[]): AuditArgs {
  const { values, positionals } = parse(argv, {
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
    limit: { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  const help = Boolean(values.help)
  const [action, ...extra] = positionals
  if (action === undefined && !help) throw new UsageError('audit needs a subcommand: deskclaw audit verify | list')
  if (action !== undefined && action !== 'verify' && action !== 'list') {
    throw new UsageError(`unknown audit subcommand "${action}" (try: verify, list)`)
  }
  if (extra.length > 0) throw new UsageError(`audit ${action} takes no arguments (got "${extra.join(' ')}")`)
  let limit = AUDIT_LIST_DEFAULT_LIMIT
  if (values.limit !== undefined) {
    if (action !== 'list') throw new UsageError('--limit applies to audit list only')
    limit = Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_LIST_MAX_LIMIT) {
      throw new UsageError(`--limit must be 1-${AUDIT_LIST_MAX_LIMIT} (got "${values.limit}")`)
    }
  }
  return {
    action,
    dataDir: typeof values['data-dir'] === 'string' ? resolve(values['data-dir']) : undefined,
    json: Boolean(values.json),
    limit,
    help
  }
}

export interface RiskArgs {
  /** The command to judge; undefined with --stdin (one command per line) or --help. */
  command?: string
  stdin: boolean
  json: boolean
  /** Also say, per finding, the principle that fired, and the folders, glob matches and targets judged. */
  explain: boolean
  /** Whose rules to read the line with: `sh` (bash's) or `cmd` (cmd.exe's; the default on Windows). */
  shell: 'sh' | 'cmd'
  autonomy: Autonomy
  workspace: string
  dataDir?: string
  help: boolean
}

/** `risk [--autonomy L] [--workspace DIR] [--json] [--explain] (--stdin | COMMAND)`. */
export function parseRiskArgs(argv: string[]): RiskArgs {
  const { values, positionals } = parse(argv, {
    autonomy: { type: 'string' },
    workspace: { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
    stdin: { type: 'boolean' },
    explain: { type: 'boolean' },
    shell: { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  const help = Boolean(values.help)
  const stdin = Boolean(values.stdin)
  const shell = values.shell ?? (process.platform === 'win32' ? 'cmd' : 'sh')
  if (shell !== 'sh' && shell !== 'cmd') throw new UsageError(`--shell must be sh or cmd (got "${values.shell}")`)
  const command = positionals.join(' ')
  if (!help && stdin && positionals.length > 0) throw new UsageError('risk takes either --stdin or a COMMAND, not both')
  if (!help && !stdin && !command.trim()) throw new UsageError('risk needs a COMMAND or --stdin, e.g. deskclaw risk "rm -rf build"')
  const autonomy = AutonomySchema.safeParse(values.autonomy ?? 'supervised')
  if (!autonomy.success) throw new UsageError(`--autonomy must be readonly, supervised or full (got "${values.autonomy}")`)
  return {
    command: stdin || help ? undefined : command,
    stdin,
    // --stdin is for programs: always one JSON object per line.
    json: Boolean(values.json) || stdin,
    explain: Boolean(values.explain),
    shell,
    autonomy: autonomy.data,
    workspace: resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd()),
    dataDir: typeof values['data-dir'] === 'string' ? resolve(values['data-dir']) : undefined,
    help
  }
}

export interface DoctorArgs {
  json: boolean
  dockerImage?: string
  help: boolean
}

export function parseDoctorArgs(argv: string[]): DoctorArgs {
  const { values, positionals } = parse(argv, {
    json: { type: 'boolean' },
    'docker-image': { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  if (positionals.length > 0) throw new UsageError(`doctor takes no arguments (got "${positionals.join(' ')}")`)
  return {
    json: Boolean(values.json),
    dockerImage: typeof values['docker-image'] === 'string' ? values['docker-image'] : undefined,
    help: Boolean(values.help)
  }
}

export const DESKTOP_ACTIONS = ['screenshot', 'windows', 'tree', 'apps', 'enable', 'disable', 'send-text', 'learn'] as const
export type DesktopAction = (typeof DESKTOP_ACTIONS)[number]

export interface DesktopArgs {
  /** Undefined only with --help. */
  action?: DesktopAction
  /** screenshot: the file to write (`-`: standard output); default screenshot-<time>.png here. */
  output?: string
  window?: string
  maxWidth?: number
  /** tree: levels below the window to read (default: all, within the node budget). */
  depth?: number
  json: boolean
  help: boolean
  /** enable / disable: the app's profile id; send-text: --app. */
  app?: string
  /** send-text */
  to?: string
  text?: string
  watermark?: 'suffix' | 'zero-width' | 'none'
  profile?: string
  approve: ApproveMode
  dataDir?: string
  /** learn: its own flags (learn-args.ts). */
  learn?: LearnArgs
}

/**
 * `desktop screenshot [-o FILE] [--window TITLE] [--max-width N]`, `desktop windows [--json]`,
 * `desktop tree --window TITLE [--json] [--depth N]`,
 * `desktop apps [--json]`, `desktop enable|disable APP`, and `desktop send-text --app ID --to NAME
 * --text TEXT [--watermark suffix|zero-width|none] [--profile FILE] [--approve ask|allow|deny] [--json]`.
 */
export function parseDesktopArgs(argv: string[]): DesktopArgs {
  if (argv[0] === 'learn') {
    try {
      const learn = parseLearnArgs(argv.slice(1))
      return { action: 'learn', json: false, help: learn.help, approve: 'ask', learn }
    } catch (error) {
      throw new UsageError(`desktop learn: ${(error as Error).message}`)
    }
  }
  const { values, positionals } = parse(argv, {
    output: { type: 'string', short: 'o' },
    window: { type: 'string' },
    'max-width': { type: 'string' },
    depth: { type: 'string' },
    json: { type: 'boolean' },
    app: { type: 'string' },
    to: { type: 'string' },
    text: { type: 'string' },
    watermark: { type: 'string' },
    profile: { type: 'string' },
    approve: { type: 'string' },
    'data-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  const help = Boolean(values.help)
  const [given, ...extra] = positionals
  if (given === undefined && !help) throw new UsageError(`desktop needs a subcommand: deskclaw desktop ${DESKTOP_ACTIONS.join(' | ')}`)
  if (given !== undefined && !(DESKTOP_ACTIONS as readonly string[]).includes(given)) {
    throw new UsageError(`unknown desktop subcommand "${given}" (try: ${DESKTOP_ACTIONS.join(', ')})`)
  }
  const action = given as DesktopAction | undefined
  const str = (name: string) => (typeof values[name as keyof typeof values] === 'string' ? (values[name as keyof typeof values] as string) : undefined)
  const only = (flags: string[], actions: DesktopAction[]) => {
    for (const flag of flags) {
      if (values[flag as keyof typeof values] !== undefined && action && !actions.includes(action)) {
        throw new UsageError(`--${flag} applies to desktop ${actions.join(' / ')} only`)
      }
    }
  }
  only(['output', 'max-width'], ['screenshot'])
  only(['window'], ['screenshot', 'tree'])
  only(['depth'], ['tree'])
  only(['json'], ['windows', 'tree', 'apps', 'send-text'])
  only(['app', 'to', 'text', 'watermark', 'profile', 'approve'], ['send-text'])
  only(['data-dir'], ['apps', 'enable', 'disable', 'send-text'])

  let app: string | undefined
  if (action === 'enable' || action === 'disable') {
    if (extra.length !== 1) throw new UsageError(`desktop ${action} needs one app id, e.g. deskclaw desktop ${action} weixin (see deskclaw desktop apps)`)
    app = extra[0]
  } else if (extra.length > 0) {
    throw new UsageError(`desktop ${action} takes no further arguments (got "${extra.join(' ')}")`)
  }
  if (typeof values.window === 'string' && !values.window.trim()) throw new UsageError('--window needs a title')
  let maxWidth: number | undefined
  if (values['max-width'] !== undefined) {
    maxWidth = Number(values['max-width'])
    if (!Number.isInteger(maxWidth) || maxWidth < 64 || maxWidth > 10_000) throw new UsageError(`--max-width must be 64-10000 (got "${values['max-width']}")`)
  }
  let depth: number | undefined
  if (values.depth !== undefined) {
    depth = Number(values.depth)
    if (!Number.isInteger(depth) || depth < 0 || depth > 100) throw new UsageError(`--depth must be 0-100 (got "${values.depth}")`)
  }
  if (action === 'tree' && !help && !str('window')?.trim()) throw new UsageError('desktop tree needs --window TITLE (see deskclaw desktop windows)')
  const approve = str('approve') ?? 'ask'
  if (approve !== 'ask' && approve !== 'allow' && approve !== 'deny') throw new UsageError(`--approve must be ask, allow or deny (got "${approve}")`)
  const watermark = str('watermark')
  if (watermark !== undefined && watermark !== 'suffix' && watermark !== 'zero-width' && watermark !== 'none') {
    throw new UsageError(`--watermark must be suffix, zero-width or none (got "${watermark}")`)
  }
  if (action === 'send-text' && !help) {
    if (!str('app')?.trim()) throw new UsageError('desktop send-text needs --app ID (see deskclaw desktop apps)')
    if (!str('to')?.trim()) throw new UsageError('desktop send-text needs --to NAME (the chat, exactly as the app shows it)')
    if (!str('text')?.trim()) throw new UsageError('desktop send-text needs --text TEXT')
    app = str('app')!.trim()
  }
  return {
    action,
    output: str('output'),
    window: str('window'),
    maxWidth,
    depth,
    json: Boolean(values.json),
    help,
    app,
    to: str('to'),
    text: str('text'),
    watermark,
    profile: str('profile') ? resolve(str('profile')!) : undefined,
    approve,
    dataDir: str('data-dir') ? resolve(str('data-dir')!) : undefined
  }
}

export interface DevicesArgs {
  json: boolean
  watch: boolean
  /** Extra port paths to list while they exist (ptys, /dev/rfcomm0, COM7). */
  ports: string[]
  help: boolean
}

export function parseDevicesArgs(argv: string[]): DevicesArgs {
  const { values, positionals } = parse(argv, {
    json: { type: 'boolean' },
    watch: { type: 'boolean' },
    port: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' }
  })
  if (positionals.length > 0) throw new UsageError(`devices takes no arguments (got "${positionals.join(' ')}"); use --port PATH to add a port`)
  return { json: Boolean(values.json), watch: Boolean(values.watch), ports: (values.port as string[] | undefined) ?? [], help: Boolean(values.help) }
}

export interface SerialArgs {
  port?: string
  baud: number
  lineEnding: 'none' | 'lf' | 'cr' | 'crlf'
  send?: string
  expect?: string
  timeoutMs: number
  help: boolean
}

/** `serial PORT [--baud N] [--line-ending crlf|lf|cr|none] [--send TEXT] [--expect TEXT] [--timeout MS]`. */
export function parseSerialArgs(argv: string[]): SerialArgs {
  const { values, positionals } = parse(argv, {
    baud: { type: 'string' },
    'line-ending': { type: 'string' },
    send: { type: 'string' },
    expect: { type: 'string' },
    timeout: { type: 'string' },
    help: { type: 'boolean', short: 'h' }
  })
  const help = Boolean(values.help)
  const [port, ...extra] = positionals
  if (!port && !help) throw new UsageError('serial needs a PORT, e.g. deskclaw serial /dev/ttyACM0 --baud 115200')
  if (extra.length > 0) throw new UsageError(`serial takes one PORT (got "${positionals.join(' ')}")`)
  const baud = values.baud === undefined ? 115_200 : Number(values.baud)
  if (!Number.isInteger(baud) || baud < 50 || baud > 4_000_000) throw new UsageError(`--baud must be 50-4000000 (got "${values.baud}")`)
  const lineEnding = (values['line-ending'] as string | undefined) ?? 'crlf'
  if (!['none', 'lf', 'cr', 'crlf'].includes(lineEnding)) throw new UsageError(`--line-ending must be crlf, lf, cr or none (got "${lineEnding}")`)
  const timeoutMs = values.timeout === undefined ? 2_000 : Number(values.timeout)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > 600_000) throw new UsageError(`--timeout must be 0-600000 ms (got "${values.timeout}")`)
  return {
    port,
    baud,
    lineEnding: lineEnding as SerialArgs['lineEnding'],
    send: typeof values.send === 'string' ? values.send : undefined,
    expect: typeof values.expect === 'string' ? values.expect : undefined,
    timeoutMs,
    help
  }
}

export function parseWebArgs(argv: string[]): WebArgs {
  const { values, positionals } = parse(argv, {
    ...commonOptions,
    host: { type: 'string' },
    port: { type: 'string' }
  })
  if (positionals.length > 0) throw new UsageError(`web takes no arguments (got "${positionals.join(' ')}")`)
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be 0-65535 (got "${values.port}")`)
  return { ...toCommon(values), host: (values.host as string | undefined) ?? '127.0.0.1', port }
}

type Values = Record<string, string | boolean | string[] | undefined>

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true })
    return { values: parsed.values as Values, positionals: parsed.positionals }
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function toCommon(values: Values): CommonArgs {
  const overrides: Partial<Settings> = {}
  if (values.provider !== undefined) {
    const provider = ProviderKindSchema.safeParse(values.provider)
    if (!provider.success) throw new UsageError(`--provider must be openai, anthropic or openai-compatible (got "${values.provider}")`)
    overrides.provider = provider.data
  }
  if (values.autonomy !== undefined) {
    const autonomy = AutonomySchema.safeParse(values.autonomy)
    if (!autonomy.success) throw new UsageError(`--autonomy must be readonly, supervised or full (got "${values.autonomy}")`)
    overrides.autonomy = autonomy.data
  }
  if (values['max-iterations'] !== undefined) {
    const n = Number(values['max-iterations'])
    if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`--max-iterations must be 1-100 (got "${values['max-iterations']}")`)
    overrides.maxIterations = n
  }
  if (values.runtime !== undefined) {
    const runtime = RuntimeChoiceSchema.safeParse(values.runtime)
    if (!runtime.success) throw new UsageError(`--runtime must be auto, docker, bwrap or native (got "${values.runtime}")`)
    overrides.runtime = runtime.data
  }
  if (typeof values['docker-image'] === 'string') {
    if (!values['docker-image'].trim()) throw new UsageError('--docker-image needs an image name')
    overrides.dockerImage = values['docker-image']
  }
  if (values['image-input'] !== undefined) {
    const imageInput = ImageInputSchema.safeParse(values['image-input'])
    if (!imageInput.success) throw new UsageError(`--image-input must be auto, on or off (got "${values['image-input']}")`)
    overrides.imageInput = imageInput.data
  }
  if (values['tool-descriptions'] !== undefined) {
    const toolDescriptions = ToolDescriptionsSchema.safeParse(values['tool-descriptions'])
    if (!toolDescriptions.success) throw new UsageError(`--tool-descriptions must be auto, full or compact (got "${values['tool-descriptions']}")`)
    overrides.toolDescriptions = toolDescriptions.data
  }
  const allowEnv = values['allow-env']
  if (Array.isArray(allowEnv)) {
    const names = allowEnv.flatMap((value) => value.split(',')).map((name) => name.trim()).filter(Boolean)
    const bad = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    if (bad !== undefined) throw new UsageError(`--allow-env takes environment variable names (got "${bad}")`)
    overrides.allowedEnv = names
  }
  if (typeof values['base-url'] === 'string') overrides.baseUrl = values['base-url']
  if (typeof values.model === 'string') overrides.model = values.model
  if (typeof values['api-key-env'] === 'string') overrides.apiKeyEnv = values['api-key-env']
  if (typeof values.workspace === 'string') overrides.workspace = resolve(values.workspace)
  return {
    overrides,
    dataDir: typeof values['data-dir'] === 'string' ? resolve(values['data-dir']) : undefined,
    help: Boolean(values.help)
  }
}
