import { AppError, errorMessage, type ErrorText } from '../../shared'
import { redactSecrets } from '../secrets'
import { baseUrlOf, nonEmpty, type ProviderConfig } from './config'
import { listedContextWindow, ollamaContextWindow } from './context-window'
import { missingKeyError } from './create-model-client'
import { networkErrorCode, unreachableMessage, unreachableText } from './network-error'

/** Which server to ask and with which key; the model is not needed to list models. */
export type ModelServer = Omit<ProviderConfig, 'model'>

export interface ListModelsOptions {
  /** Per request (default 5 s): a model list is a quick read, and the UI waits for it. */
  timeoutMs?: number
  signal?: AbortSignal
}

const DEFAULT_TIMEOUT_MS = 5_000
const MAX_MODELS = 500
const MAX_SERVER_MESSAGE = 300
/** The version header every Anthropic API request carries. */
const ANTHROPIC_VERSION = '2023-06-01'
/** OpenAI lists every model of the account; these cannot chat. */
const OPENAI_NOT_CHAT = /(embedding|whisper|tts|dall-e|davinci|babbage|moderation|transcribe|audio|realtime|image|search|computer-use|sora)/i

/**
 * The model ids a server offers, sorted, for the model pickers:
 * - openai / openai-compatible: `GET {baseUrl}/models` (`data[].id`);
 * - an Ollama base URL (port 11434 or a host named ollama), or an OpenAI-compatible server
 *   without a usable `/models`: also `GET {origin}/api/tags` (`models[].name`);
 * - anthropic: `GET {baseUrl}/models` with `x-api-key` and `anthropic-version`.
 * Fails with an AppError saying what went wrong (unreachable, key refused, no model list there).
 */
export async function listModels(server: ModelServer, options: ListModelsOptions = {}): Promise<string[]> {
  const baseUrl = baseUrlOf(server).replace(/\/+$/, '')
  const apiKey = nonEmpty(server.apiKey)
  const read = (url: string, headers: Record<string, string>) => readJson(url, headers, baseUrl, options)

  switch (server.provider) {
    case 'anthropic': {
      if (!apiKey) throw missingKeyError(server)
      const body = await read(`${baseUrl}/models?limit=1000`, { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION })
      return tidy(idsOf(body, `${baseUrl}/models`))
    }
    case 'openai': {
      if (!apiKey) throw missingKeyError(server)
      const body = await read(`${baseUrl}/models`, { authorization: `Bearer ${apiKey}` })
      return tidy(idsOf(body, `${baseUrl}/models`).filter((id) => !OPENAI_NOT_CHAT.test(id)))
    }
    case 'openai-compatible': {
      if (!nonEmpty(server.baseUrl)) {
        throw new AppError('NOT_CONFIGURED', 'No base URL set for the OpenAI-compatible server: set one in Settings (e.g. http://localhost:11434/v1 for Ollama).', {
          key: 'errors.notConfigured.baseUrl'
        })
      }
      const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {}
      const tagsUrl = `${ollamaOrigin(baseUrl)}/api/tags`
      if (isOllamaUrl(baseUrl)) {
        // Ollama's own list names every pulled model the way its /v1 endpoint accepts them.
        try {
          return tidy(namesOf(await read(tagsUrl, headers), tagsUrl))
        } catch {
          // An Ollama build without /api/tags, or not Ollama after all: the OpenAI-style list decides.
        }
      }
      try {
        return tidy(idsOf(await read(`${baseUrl}/models`, headers), `${baseUrl}/models`))
      } catch (error) {
        if (!(error instanceof ListError) || !error.noList || isOllamaUrl(baseUrl)) throw asAppError(error)
        try {
          return tidy(namesOf(await read(tagsUrl, headers), tagsUrl))
        } catch {
          throw asAppError(error) // the first answer says more about the base URL than the fallback's
        }
      }
    }
  }
}

/**
 * The context window the server's model list names for `model` (docs/architecture.md, "Context
 * window"), or undefined when it names none or cannot be asked — never an error: a run then plans
 * with the default. Ollama: `POST /api/show`; LM Studio: `GET /api/v0/models/{model}` when its
 * OpenAI-style list says nothing; others: the model's entry in `GET {baseUrl}/models`.
 */
export async function listedModelWindow(server: ModelServer, model: string, options: ListModelsOptions = {}): Promise<number | undefined> {
  const baseUrl = baseUrlOf(server).replace(/\/+$/, '')
  const apiKey = nonEmpty(server.apiKey)
  const read = (url: string, headers: Record<string, string>, body?: unknown) => readJson(url, headers, baseUrl, options, body)
  const ask = async (url: string, headers: Record<string, string>, pick: (answer: unknown) => number | undefined, body?: unknown) => {
    try {
      return pick(await read(url, headers, body))
    } catch {
      return undefined
    }
  }
  const entryWindow = (body: unknown) => {
    const data = (body as { data?: unknown } | null)?.data
    return Array.isArray(data) ? listedContextWindow(data.find((entry) => (entry as { id?: unknown } | null)?.id === model)) : undefined
  }
  switch (server.provider) {
    case 'anthropic':
      if (!apiKey) return undefined
      return ask(`${baseUrl}/models?limit=1000`, { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }, entryWindow)
    case 'openai':
    case 'openai-compatible': {
      const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {}
      if (server.provider === 'openai-compatible' && isOllamaUrl(baseUrl)) {
        return ask(`${ollamaOrigin(baseUrl)}/api/show`, headers, ollamaContextWindow, { model })
      }
      const listed = await ask(`${baseUrl}/models`, headers, entryWindow)
      if (listed !== undefined || server.provider === 'openai') return listed
      return ask(`${ollamaOrigin(baseUrl)}/api/v0/models/${encodeURIComponent(model)}`, headers, listedContextWindow)
    }
  }
}

/** Ollama's usual port, or a host called ollama (containers, reverse proxies). */
export function isOllamaUrl(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl)
    return url.port === '11434' || /(^|\.)ollama($|\.)/i.test(url.hostname)
  } catch {
    return false
  }
}

/** http://host:11434/v1 → http://host:11434 (Ollama's native API sits beside /v1). */
function ollamaOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/v1$/, '')
}

/** A failure of one list request; `noList`: the server answered, but not with a model list there. */
class ListError extends AppError {
  constructor(
    code: AppError['code'],
    message: string,
    readonly noList = false,
    text?: ErrorText
  ) {
    super(code, message, text)
  }
}

function asAppError(error: unknown): AppError {
  if (error instanceof ListError) return new AppError(error.code, error.message, error.text)
  if (error instanceof AppError) return error
  const detail = errorMessage(error)
  return new AppError('MODEL_ERROR', `Could not list the models: ${detail}`, { key: 'errors.model.listFailed', params: { detail } })
}

async function readJson(url: string, headers: Record<string, string>, baseUrl: string, options: ListModelsOptions, body?: unknown): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let response: Response
  try {
    // Redirects are not followed: the key must not travel to wherever a server points.
    const post = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }
    const type: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
    response = await fetch(url, { headers: { accept: 'application/json', ...type, ...headers }, signal, redirect: 'manual', ...post })
  } catch (error) {
    if (timeout.aborted) {
      throw new ListError('MODEL_UNREACHABLE', `The model server at ${baseUrl} did not answer in time.`, false, { key: 'errors.model.timeout', params: { url: baseUrl } })
    }
    if (options.signal?.aborted) throw new ListError('CANCELLED', 'Listing the models was cancelled.')
    const reason = networkErrorCode(error) ?? errorMessage(error)
    throw new ListError('MODEL_UNREACHABLE', unreachableMessage(baseUrl, reason), false, unreachableText(baseUrl, reason))
  }
  // A server may echo the request's headers in its error: the key never comes back in our message.
  const secrets = Object.values(headers).flatMap((value) => [value, value.replace(/^Bearer\s+/i, '')])
  const text = redactSecrets(await response.text().catch(() => ''), secrets)
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location')
    throw new ListError('MODEL_ERROR', `${url} redirects${location ? ` to ${location}` : ''} (${response.status}); set the base URL to where the server really is.`, true)
  }
  if (response.status === 401 || response.status === 403) {
    const said = detail(text).replace(/^: /, '')
    throw new ListError('MODEL_AUTH', `The model server rejected the API key (${response.status})${detail(text)}`, false, {
      key: 'errors.model.auth',
      params: { status: response.status, ...(said ? { detail: said } : {}) }
    })
  }
  if (!response.ok) {
    const hint = response.status === 404 ? '; check the base URL' : ''
    throw new ListError('MODEL_ERROR', `${url} answered ${response.status}${hint}${detail(text)}`, response.status === 404 || response.status === 405)
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ListError('MODEL_ERROR', `${url} did not answer with JSON; check the base URL`, true)
  }
}

/** `data[].id` (OpenAI, OpenAI-compatible servers, Anthropic). */
function idsOf(body: unknown, url: string): string[] {
  const data = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) throw new ListError('MODEL_ERROR', `${url} answered without a model list (no "data" array); check the base URL`, true)
  return data.map((entry) => (entry as { id?: unknown } | null)?.id).filter(isModelId)
}

/** `models[].name` (Ollama's /api/tags). */
function namesOf(body: unknown, url: string): string[] {
  const models = (body as { models?: unknown } | null)?.models
  if (!Array.isArray(models)) throw new ListError('MODEL_ERROR', `${url} answered without a model list`, true)
  return models.map((entry) => (entry as { name?: unknown; model?: unknown } | null)?.name ?? (entry as { model?: unknown } | null)?.model).filter(isModelId)
}

function isModelId(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 200
}

function tidy(ids: string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()))].sort((a, b) => a.localeCompare(b)).slice(0, MAX_MODELS)
}

/** The server's own error text, on one line and short: `: …`, or nothing. */
function detail(text: string): string {
  let message = text
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const candidate = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message)
    if (typeof candidate === 'string') message = candidate
  } catch {
    // not JSON: the raw text
  }
  const line = message.replace(/\s+/g, ' ').trim()
  if (!line) return ''
  return `: ${line.length > MAX_SERVER_MESSAGE ? `${line.slice(0, MAX_SERVER_MESSAGE - 1)}…` : line}`
}
