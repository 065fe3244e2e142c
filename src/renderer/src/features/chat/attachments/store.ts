import { create } from 'zustand'
import { admitAttachment, type AttachmentProblem, type DraftAttachment, pastedFileName } from './files'
import { readAttachmentFile } from './read-file'

interface AttachmentDraftState {
  /** What the next message carries, in the order added. */
  items: DraftAttachment[]
  /** Why the files of the last add were not all attached (cleared by the next add). */
  problems: AttachmentProblem[]
  /** Reads and adds files (picked, pasted or dropped), one at a time, as long as they fit. */
  add(files: readonly File[]): Promise<void>
  /** A long paste as a text attachment (named pasted-text.txt…), so none of it is lost. */
  addPastedText(text: string): Promise<void>
  remove(id: string): void
  /** After a send: drops what was sent (more may have been added meanwhile) and the problems. */
  removeSent(ids: readonly string[]): void
  dismissProblems(): void
}

/** The composer's attachments, like its text (draft.ts): one draft, kept across conversations. */
export const useAttachmentDraftStore = create<AttachmentDraftState>((set, get) => ({
  items: [],
  problems: [],

  async add(files) {
    const problems: AttachmentProblem[] = []
    set({ problems })
    for (const file of files) {
      const read = await readAttachmentFile(file)
      if (!('id' in read)) {
        problems.push(read)
        continue
      }
      const problem = admitAttachment(get().items, read)
      if (problem) problems.push(problem)
      else set({ items: [...get().items, read] })
    }
    set({ problems: [...problems] })
  },

  async addPastedText(text) {
    const name = pastedFileName(get().items.map((item) => item.name))
    const before = get().items.length
    await get().add([new File([text], name, { type: 'text/plain' })])
    const items = get().items
    if (items.length > before) set({ items: items.map((item, index) => (index === items.length - 1 && item.kind === 'text' ? { ...item, pasted: true } : item)) })
  },

  remove(id) {
    set({ items: get().items.filter((item) => item.id !== id) })
  },

  removeSent(ids) {
    set({ items: get().items.filter((item) => !ids.includes(item.id)), problems: [] })
  },

  dismissProblems() {
    set({ problems: [] })
  }
}))
