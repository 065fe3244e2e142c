/**
 * The models a server lists (providers.listModels), for the model pickers: one request per server
 * at a time, kept for a minute so opening the picker again shows the list at once.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ProviderTarget } from '../../../../shared/bridge'
import type { AppErrorShape } from '../../../../shared/errors'
import { getDeskclawApi } from '../../bridge'

interface Entry {
  models: string[] | null
  error: AppErrorShape | null
  at: number
  pending: Promise<Entry> | null
}

const FRESH_MS = 60_000
const cache = new Map<string, Entry>()

export interface ServerModels {
  /** The last list the server gave (empty until one arrives). */
  models: string[]
  loading: boolean
  error: AppErrorShape | null
  /** Asks the server again, even if the list is fresh. */
  reload(): void
}

function keyOf(target: ProviderTarget): string {
  return JSON.stringify([target.provider ?? '', target.baseUrl?.trim() ?? '', target.apiKeyEnv?.trim() ?? ''])
}

function fetchModels(key: string, target: ProviderTarget): Promise<Entry> {
  const known = cache.get(key)
  if (known?.pending) return known.pending
  const pending = getDeskclawApi()
    .invoke('providers.listModels', target)
    .then((result): Entry => {
      const entry: Entry = result.ok
        ? { models: result.data.models, error: null, at: Date.now(), pending: null }
        : { models: known?.models ?? null, error: result.error, at: Date.now(), pending: null }
      cache.set(key, entry)
      return entry
    })
  cache.set(key, { models: known?.models ?? null, error: known?.error ?? null, at: known?.at ?? 0, pending })
  return pending
}

/** `target` null: nothing to ask (no valid server yet). */
export function useServerModels(target: ProviderTarget | null): ServerModels {
  const key = target ? keyOf(target) : null
  const [entry, setEntry] = useState<Entry | null>(() => (key ? (cache.get(key) ?? null) : null))
  const [loading, setLoading] = useState(false)
  const [generation, setGeneration] = useState(0)
  const forced = useRef(false)

  useEffect(() => {
    if (!key || !target) {
      setEntry(null)
      setLoading(false)
      return
    }
    let live = true
    const known = cache.get(key)
    setEntry(known ?? null)
    const fresh = known && !known.pending && known.error === null && Date.now() - known.at < FRESH_MS
    if (fresh && !forced.current) {
      setLoading(false)
      return
    }
    forced.current = false
    setLoading(true)
    void fetchModels(key, target).then((next) => {
      if (!live) return
      setEntry(next)
      setLoading(false)
    })
    return () => {
      live = false
    }
    // `target` is what `key` describes; a new generation asks again.
  }, [key, generation])

  const reload = useCallback(() => {
    forced.current = true
    setGeneration((g) => g + 1)
  }, [])
  return { models: entry?.models ?? [], loading, error: entry?.error ?? null, reload }
}
