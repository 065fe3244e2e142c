import { basename } from 'node:path'
import { credentialFormatOf, findSecretValues, isSecretFolderName, isSecretName, redactSecretSpans } from '../../secrets'
import { isRefusal, type WorkspaceReader } from '../../workspace'
import type { WalkedFile } from './walk'

/** Larger files are skipped, as are binary ones (a NUL in the first 8 KB, ripgrep's rule). */
export const MAX_SEARCHED_BYTES = 10 * 1024 * 1024
/** How many names a note lists before "and N more". */
const NAMES_SHOWN = 5

/** What a search left out, and why, so the result says so instead of silently returning less. */
export class SkipReport {
  /** Secret-named files, files in secret folders, and credential files that hold a credential. */
  readonly secrets: string[] = []
  readonly hardLinked: string[] = []
  /** Swapped while being opened (a link or another object now), or leading out: never read. */
  readonly changed: string[] = []
  /** Secret values replaced in the text that was searched. */
  redacted = 0

  notes(): string[] {
    const notes: string[] = []
    if (this.secrets.length > 0) {
      notes.push(`[${this.secrets.length} files that hold secrets were not searched: ${names(this.secrets)}; search one by its "path" to be asked first]`)
    }
    if (this.hardLinked.length > 0) notes.push(`[${this.hardLinked.length} hard-linked files were not searched (another name may be outside the workspace): ${names(this.hardLinked)}]`)
    if (this.changed.length > 0) notes.push(`[${this.changed.length} files changed while being opened and were not searched: ${names(this.changed)}]`)
    if (this.redacted > 0) notes.push(`[${this.redacted} secret values (tokens, keys, passwords) in searched files were replaced by [secret redacted]]`)
    return notes
  }
}

function names(list: string[]): string {
  const shown = list.slice(0, NAMES_SHOWN).join(', ')
  return list.length > NAMES_SHOWN ? `${shown} and ${list.length - NAMES_SHOWN} more` : shown
}

export interface GateOptions {
  /** The file is the search's own "path": the judgement saw it (and asked when it is a secret), so it is read as it is. */
  explicit: boolean
  signal: AbortSignal
}

/**
 * The text of one walked file as grep may search it, or null when it is not searched (docs/tools.md,
 * "grep and glob"): the file tools' rules — secret names skipped in a walk, hard-linked and special
 * files refused, opened race-free from the workspace's descriptor — and secrets by content: a
 * credential file holding one is skipped, a secret value elsewhere is replaced before matching.
 */
export async function readForSearch(reader: WorkspaceReader, file: WalkedFile, options: GateOptions, report: SkipReport): Promise<string | null> {
  if (!options.explicit && holdsSecretsByName(file.rel)) {
    report.secrets.push(file.rel)
    return null
  }
  if (file.nlink > 1) {
    report.hardLinked.push(file.rel)
    return null
  }
  const read = await reader.read(file.rel, { maxBytes: MAX_SEARCHED_BYTES, signal: options.signal })
  if (isRefusal(read)) {
    if (read.code === 'hardLinked') report.hardLinked.push(file.rel)
    else if (read.code === 'changed' || read.code === 'linkOutside' || read.code === 'special') report.changed.push(file.rel)
    return null
  }
  if (read.data.subarray(0, 8_192).includes(0)) return null
  const text = read.data.toString('utf8')
  if (options.explicit) return text
  const spans = findSecretValues(text, { path: file.rel })
  if (spans.length === 0) return text
  if (credentialFormatOf(file.rel) !== null) {
    report.secrets.push(file.rel)
    return null
  }
  report.redacted += spans.length
  return redactSecretSpans(text, spans)
}

/** A secret-shaped name, or a file under a secret-shaped folder (`.ssh/`, `secrets/`). */
export function holdsSecretsByName(rel: string): boolean {
  const parts = rel.split('/')
  return isSecretName(basename(rel)) || parts.slice(0, -1).some(isSecretFolderName)
}
