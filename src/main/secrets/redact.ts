/** What a secret is replaced with in text that may be shown, stored or logged. */
export const REDACTED = '[redacted]'

/** Shorter values are not redacted: replacing every "abc" in a message would say nothing useful. */
const MIN_REDACTED_LENGTH = 4

/**
 * `text` with every occurrence of each secret replaced by [redacted] (a server that echoes the
 * key it was sent in its error body, an error that quotes a header value).
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text
  // The longest first, so a key that contains another is replaced whole; as given and trimmed.
  const values = [...new Set(secrets.flatMap((secret) => (secret ? [secret, secret.trim()] : [])))]
  for (const value of values.sort((a, b) => b.length - a.length)) {
    if (value.length >= MIN_REDACTED_LENGTH) result = result.split(value).join(REDACTED)
  }
  return result
}
