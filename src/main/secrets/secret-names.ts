/**
 * Names that hold secrets wherever they are (docs/risk.md, "Secrets"): the path guardian asks before
 * a command or a file tool reads one, and the search tools skip them in a walk. Lexical, any case.
 */

/** Folders whose names are enough to say they hold secrets, wherever they are (case-insensitive). */
export const SECRET_DIR = /^(\.ssh|\.aws|\.gnupg|\.azure|\.kube|\.password-store|keyrings|\.docker|secrets?|credentials|\.vault-token)$/i

/**
 * Names that hold secrets wherever they are. Files that only sometimes do (`.npmrc`, `.pypirc`,
 * `.yarnrc.yml`, `.git/config`, `*.settings.json`) are judged by their content instead
 * (secret-content.ts); in the home folder they are credential locations all the same.
 */
export const SECRET_NAME = /^(\.env(\..+)?|\.envrc|\.dev\.vars(\..+)?|.+\.(p8|pk8|pkcs8|pkcs12|crt|cer|der|key\.pem)|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.+\.(pem|p12|pfx|kdbx|keychain(-db)?|key|keystore|jks|ppk|asc|gpg|ovpn)|master\.key|secrets?\.(ya?ml|json|toml|env)|\.git-credentials|\.netrc|\.pgpass|\.my\.cnf|credentials(\..+)?|.*_history|\.history|login\.keychain.*|logins\.json|key[34]\.db|cookies(\.sqlite)?|login data|token(s)?(\.json)?|auth\.json|\.vault-token|service-account.*\.json)$/i

/** A file name that usually holds secrets (any case; `.example`/`.sample`/`.template` copies are not). */
export function isSecretName(base: string): boolean {
  // Windows drops trailing dots and spaces from a name: `.env.` and `id_rsa ` open `.env` and `id_rsa`.
  const name = base.replace(/[. ]+$/, '') || base
  return SECRET_NAME.test(name) && !/\.(example|sample|template|dist)$/i.test(name)
}

/** A folder name that says it holds secrets (`.ssh`, `.aws`, `secrets`, …), any case. */
export function isSecretFolderName(name: string): boolean {
  return SECRET_DIR.test(name)
}
