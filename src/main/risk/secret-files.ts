import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs'
import { credentialFormatOf, describeSecretSpans, findSecretValues, SECRET_SCAN_BYTES } from '../secrets/secret-content'

/**
 * Secrets by content for the path guardian (docs/risk.md, "Secrets"): a file whose name does not
 * say it holds secrets may still hold one — a token in a git remote URL in `.git/config`, an
 * `_authToken` in `.npmrc`, an `AccountKey` in `local.settings.json`, a `ghp_…` token in source code.
 *
 * Credential files (by format: `credentialFormatOf`) are read up to SECRET_SCAN_BYTES and any real
 * value in a credential position counts; other files only when `anyFile` is asked (a file tool's
 * one subject, or a few shell operands per judgement), small ones, and only token-shaped values.
 */

/** Other files are looked into only when this small: a judgement must stay fast. */
const ANY_FILE_BYTES = 256 * 1024
/** How many non-credential files one judgement looks into (`cat src/*.ts` must not read a tree). */
const ANY_FILE_BUDGET = 16

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const O_NONBLOCK = constants.O_NONBLOCK ?? 0

const cache = new Map<string, string | null>()
let budget = ANY_FILE_BUDGET

/** Starts a judgement: the budget of files looked into is per judgement. */
export function startSecretContentJudgement(): void {
  budget = ANY_FILE_BUDGET
}

/**
 * Why reading the file at `real` (a real path: links already followed) exposes a secret by its
 * content — "holds a GitHub token (line 3)" — or null (also when it is not a regular file, is
 * missing or cannot be read: the guardian's other checks judge those).
 */
export function secretContentReason(real: string, options: { anyFile: boolean }): string | null {
  const format = credentialFormatOf(real)
  if (format === null && !options.anyFile) return null
  let fd: number
  try {
    // O_NONBLOCK: a FIFO must never block a judgement (the special-file check asks about it anyway).
    fd = openSync(real, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
  } catch {
    return null
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) return null
    const key = `${real}\0${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${format !== null || options.anyFile}`
    const known = cache.get(key)
    if (known !== undefined) return known
    if (format === null && (stats.size > ANY_FILE_BYTES || budget-- <= 0)) return null
    const length = Math.min(stats.size, SECRET_SCAN_BYTES)
    const buffer = Buffer.alloc(length)
    let read = 0
    while (read < length) {
      const got = readSync(fd, buffer, read, length - read, read)
      if (got === 0) break
      read += got
    }
    const bytes = buffer.subarray(0, read)
    let reason: string | null = null
    if (format !== null || !bytes.subarray(0, 8_192).includes(0)) {
      const text = bytes.toString('utf8')
      const spans = findSecretValues(text, { path: real })
      if (spans.length > 0) reason = describeSecretSpans(text, spans)
      else if (format !== null && stats.size > SECRET_SCAN_BYTES) reason = `is a credential file too large to check (${stats.size} bytes)`
    }
    if (cache.size > 2_048) cache.clear()
    cache.set(key, reason)
    return reason
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}
