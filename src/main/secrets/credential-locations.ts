/**
 * Where a user's credentials and private data live under the home folder: keys, cloud and
 * registry logins, browser profiles, keychains, shell history. Relative to the home folder.
 * One list for two readers: the path guardian asks before a command reads one of them
 * (docs/risk.md), and the bwrap sandbox hides the ones that exist (docs/runtimes.md, "bwrap").
 */
export const HOME_CREDENTIAL_LOCATIONS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.config/gcloud',
  '.config/gh',
  '.docker/config.json',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.password-store',
  '.pgpass',
  '.my.cnf',
  '.local/share/keyrings',
  '.bash_history',
  '.zsh_history',
  'Library/Keychains',
  'Library/Cookies',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.mozilla',
  '.thunderbird',
  'snap/firefox',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Safari',
  'AppData/Local/Google/Chrome',
  'AppData/Roaming/Mozilla',
  'AppData/Local/Microsoft/Edge',
  'AppData/Roaming/Microsoft/Credentials',
  'AppData/Roaming/Microsoft/Protect'
]
