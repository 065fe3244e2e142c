import { create } from 'zustand'
import type { AppErrorShape } from '../../../shared/errors'
import { getDeskclawApi } from '../bridge'
import { attachmentDataUrl } from './reducers'

/** One attachment's data as the timeline shows it: fetched once by id, then kept. */
export type AttachmentEntry =
  | { status: 'loading' }
  | { status: 'ready'; mediaType: string; name: string | null; /** A `data:` URL (the CSP allows data: images, not blob:). */ url: string }
  | { status: 'error'; error: AppErrorShape }

/** Images kept in memory at most; the least recently shown are dropped first (and fetched again if shown again). */
const MAX_READY = 80

interface AttachmentsState {
  entries: Record<string, AttachmentEntry>
  /** Fetches the attachment unless it is loaded or loading (a failed one is fetched again only by `retry`). */
  ensure(id: string): void
  retry(id: string): void
}

/** Ids of ready entries, least recently requested first. */
const recent: string[] = []

function touch(id: string): void {
  const index = recent.indexOf(id)
  if (index !== -1) recent.splice(index, 1)
  recent.push(id)
}

/**
 * Attachment data (screenshots a tool returned) by id, outside the cards: re-renders and remounts
 * of a card never fetch twice, and a conversation's images are fetched only when shown.
 */
export const useAttachmentsStore = create<AttachmentsState>((set, get) => {
  async function fetchOne(id: string): Promise<void> {
    set({ entries: { ...get().entries, [id]: { status: 'loading' } } })
    const result = await getDeskclawApi()
      .invoke('attachments.get', { id })
      .catch((error: unknown) => ({ ok: false as const, error: { code: 'INTERNAL' as const, message: String(error) } }))
    let entry: AttachmentEntry
    if (!result.ok) {
      entry = { status: 'error', error: result.error }
    } else {
      const url = attachmentDataUrl(result.data.mediaType, result.data.data)
      entry = url
        ? { status: 'ready', mediaType: result.data.mediaType, name: result.data.name, url }
        : { status: 'error', error: { code: 'VALIDATION_FAILED', message: result.data.mediaType } }
    }
    const entries = { ...get().entries, [id]: entry }
    if (entry.status === 'ready') {
      touch(id)
      while (recent.length > MAX_READY) delete entries[recent.shift()!]
    }
    set({ entries })
  }

  return {
    entries: {},

    ensure(id) {
      const entry = get().entries[id]
      if (entry) {
        if (entry.status === 'ready') touch(id)
        return
      }
      void fetchOne(id)
    },

    retry(id) {
      if (get().entries[id]?.status === 'error') void fetchOne(id)
    }
  }
})
