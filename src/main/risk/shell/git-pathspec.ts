/**
 * Pathspecs of git's content readers (`git log -p -- '*.env'`): git matches them itself, against
 * every path in history — a file deleted from the working tree is still there — so the shell's
 * view of the disk proves nothing (docs/risk.md, item 3). A glob that could match a secret-shaped
 * name asks, and so does any magic pathspec (`:(glob)`, `:!src`): an exclusion matches the rest.
 */
import { globToRegExp, isSecretName } from '../paths'

/** Names the path guardian calls secrets, one of each shape, to try a pathspec glob against. */
const SECRET_SAMPLES = [
  '.env', '.env.local', '.envrc', '.dev.vars', 'id_rsa', 'id_ed25519', 'server.pem', 'private.key', 'master.key', 'credentials',
  'credentials.json', 'secrets.yml', 'secret.json', '.netrc', '.npmrc', '.pypirc', '.git-credentials', 'token', 'auth.json',
  'cert.p12', 'cert.pfx', 'signing.p8', 'app.keystore', 'server.crt', '.bash_history', 'service-account.json', 'vault.kdbx'
].filter(isSecretName)


/** Why a pathspec may select secret-shaped files from history, or null. */
export function pathspecSecretReason(pathspec: string): string | null {
  if (pathspec.startsWith(':')) return `the magic pathspec ${pathspec} can select any file, secrets included`
  if (!/[*?[]/.test(pathspec)) return null
  // git's wildmatch without FNM_PATHNAME (a pathspec's default): `*` and `?` also match `/`.
  const pattern = globToRegExp(pathspec, 'i')
  const hit = SECRET_SAMPLES.find((name) => pattern.test(name) || pattern.test(`dir/${name}`))
  return hit ? `the pathspec ${pathspec} matches secret-shaped files such as ${hit}` : null
}
