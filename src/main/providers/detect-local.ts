/**
 * Finds model servers running on this machine — Ollama and LM Studio — for the first-run setup
 * (docs/architecture.md, "First run"): each is asked for its models with a short timeout, and only
 * what answered is offered.
 */
export interface LocalServerProbe {
  name: 'Ollama' | 'LM Studio'
  /** The OpenAI-compatible base URL DeskClaw talks to. */
  baseUrl: string
  /** Where its model list is read. */
  modelsUrl: string
  kind: 'ollama-tags' | 'openai-models'
}

export interface LocalServer {
  name: string
  baseUrl: string
  models: string[]
}

export const LOCAL_SERVERS: readonly LocalServerProbe[] = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', modelsUrl: 'http://127.0.0.1:11434/api/tags', kind: 'ollama-tags' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', modelsUrl: 'http://127.0.0.1:1234/v1/models', kind: 'openai-models' }
]

const TIMEOUT_MS = 1_500

async function probe(server: LocalServerProbe, timeoutMs: number): Promise<LocalServer | null> {
  try {
    const response = await fetch(server.modelsUrl, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' })
    if (!response.ok) return null
    const body = (await response.json()) as { models?: Array<{ name?: unknown }>; data?: Array<{ id?: unknown }> }
    const names = server.kind === 'ollama-tags' ? (body.models ?? []).map((m) => m.name) : (body.data ?? []).map((m) => m.id)
    const models = names.filter((name): name is string => typeof name === 'string' && name.length > 0 && name.length < 200).slice(0, 100)
    return { name: server.name, baseUrl: server.baseUrl, models }
  } catch {
    return null // not running, not that server, or not answering in time
  }
}

/** The local servers that answered, in the order of `servers`. */
export async function detectLocalServers(servers: readonly LocalServerProbe[] = LOCAL_SERVERS, timeoutMs = TIMEOUT_MS): Promise<LocalServer[]> {
  const found = await Promise.all(servers.map((server) => probe(server, timeoutMs)))
  return found.filter((server): server is LocalServer => server !== null)
}
