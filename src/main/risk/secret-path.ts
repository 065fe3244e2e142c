/**
 * Whether a path as a tool or command wrote it names a file that holds secrets (docs/risk.md,
 * "Provenance"): the path guardian's own answer, for the provenance tracker, which follows the
 * values read from such files as secrets.
 */
import { normalise, secretPathReason, type PathContext } from './paths'

export function isSecretPath(written: string, ctx: PathContext): boolean {
  try {
    return secretPathReason(normalise(written, ctx), ctx) !== null
  } catch {
    return false
  }
}

/** True when any word of a command line (or a path) names a secret file: `cat .env`, `git -C x show HEAD:id_rsa`. */
export function namesSecretPath(text: string, ctx: PathContext): boolean {
  return text
    .split(/[\s'"`;|&<>()=:]+/)
    .filter((word) => word.length > 0 && !word.startsWith('-'))
    .some((word) => isSecretPath(word, ctx))
}
