/**
 * Issue 21, family 4 — secret-shaped names by any spelling: globs that can match a secret,
 * near-names (`.dev.vars`, key and certificate extensions), Windows spellings (a trailing dot or
 * space, `%APPDATA%` / `%LOCALAPPDATA%` credential stores and histories), and programs that load
 * files by search path (jq's `import` / `include`).
 */
import { benign, cross, dangerous, finish, type Fixture, type FamilyCase } from './kit'

export function secretNamesCases(fx: Fixture): FamilyCase[] {
  const readers = ['cat', 'head -5', 'grep -n x', 'wc -l', 'less', 'base64', 'xxd', 'sort']
  const near = ['.dev.vars', 'certs/server.p12', 'deploy.pfx', 'signing.p8', 'app.keystore', 'release.jks', 'server.crt', 'ca.cer', 'client.key', 'tls.key.pem', 'id_ed25519', 'putty.ppk']
  const windows = ['.env.', '.env..', "'.env '", '".env. "', 'config/master.key.', "'config/master.key '", 'certs/server.pem.', "'certs/SERVER.PEM '"]
  const appdata = [
    '%APPDATA%/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history.txt', '%APPDATA%\\\\Microsoft\\\\Credentials\\\\x', '%LOCALAPPDATA%/Microsoft/Credentials/x',
    '%APPDATA%/Microsoft/Protect/S-1-5', "'%LOCALAPPDATA%\\Google\\Chrome\\User Data\\Default\\Login Data'", '~/AppData/Roaming/Microsoft/Credentials/x',
    `${fx.home}/AppData/Local/Microsoft/Credentials/x`, '~/AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history.txt',
    "'$env:APPDATA/Microsoft/Credentials/x'", '%USERPROFILE%/.ssh/id_rsa'
  ]
  const globs = ["cat .e*", 'cat .en?', 'cat .[e]nv', 'cat config/*', 'cat certs/*', 'cat */*.key', 'cat */*.pem', 'head .d*', 'cat .dev.*', 'grep x .*', 'cat ~/.ss?/*', 'cat ~/.aws/*']
  const jq = ['jq \'import "x" as x; .\' README.md', 'jq \'include "x"; .\' README.md', "jq -n 'import \"secrets\" as $s; $s'", 'jq \'modulemeta\' README.md', "jq -L ~/.ssh 'import \"id\" as i; .' README.md", 'jq \'get_search_list\' README.md']
  return finish(14, [
    ...dangerous('near-names of secrets', cross(readers, near, (r, n) => `${r} ${n}`).slice(0, 60)),
    ...dangerous('Windows spellings of secret names (trailing dot or space)', cross(['cat', 'type', 'head'], windows, (r, n) => `${r} ${n}`)),
    ...dangerous('Windows credential stores and histories', cross(['cat', 'type', 'Get-Content'], appdata, (r, n) => `${r} ${n}`)),
    ...dangerous('globs that can match a secret', globs),
    ...dangerous('programs that load files by search path', jq),
    ...benign('ordinary names beside them', ['cat README.md', 'cat docs/guide.md', 'head -5 src/index.ts', "jq '.name' README.md", 'cat src/*.ts', 'cat docs/*', 'wc -l src/index.ts', 'cat .env.example', 'ls certs', 'ls -la config'])
  ])
}
