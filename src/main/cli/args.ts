import { parseArgs, type ParseArgsConfig } from 'node:util'
import { resolve } from 'node:path'
import { AutonomySchema, ProviderKindSchema, type Settings } from '../../shared'

export class UsageError extends Error {}

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

type Values = Record<string, string | boolean | undefined>

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
