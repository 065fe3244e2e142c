/**
 * Secrets by content, not only by name (docs/risk.md, "Secrets"): which files commonly hold
 * credentials, and where in a text a value looks like one. One module for every reader — the path
 * guardian (asks before a read), the file and search tools (skip or redact), git's judgement and the
 * provenance tracker (which values to follow) — so they all agree on what a secret is.
 *
 * It errs on the side of the user's secrets but not on every long word: a value counts when it has
 * a token's known shape (a vendor prefix, a private-key block, a JWT, a password inside a URL), or
 * when it stands in a credential position (`password=`, `token:`, `_authToken=`) and is not a
 * placeholder or code (`${TOKEN}`, `process.env.X`); outside credential files such a value must
 * also look random (long and of high entropy).
 */

/** What kind of secret a span holds, for the message that names it. */
export type SecretKind =
  | 'private-key'
  | 'github-token'
  | 'gitlab-token'
  | 'slack-token'
  | 'anthropic-key'
  | 'openai-key'
  | 'aws-access-key'
  | 'google-api-key'
  | 'npm-token'
  | 'pypi-token'
  | 'jwt'
  | 'url-credentials'
  | 'authorization-header'
  | 'credential-value'

/** One secret value in a text: [start, end) in UTF-16 code units, and its kind. */
export interface SecretSpan {
  start: number
  end: number
  kind: SecretKind
}

/** The formats of files that commonly hold credentials (the generator test walks each). */
export type CredentialFormat =
  | 'dotenv'
  | 'git-config'
  | 'git-credentials'
  | 'npmrc'
  | 'yarnrc'
  | 'pypirc'
  | 'netrc'
  | 'settings-json'
  | 'docker-config'
  | 'aws-credentials'
  | 'gcloud'
  | 'azure'

/** How much of a file the judgement reads to look for secrets; readers redact what lies past it. */
export const SECRET_SCAN_BYTES = 1024 * 1024

const KIND_TEXT: Record<SecretKind, string> = {
  'private-key': 'a private key',
  'github-token': 'a GitHub token',
  'gitlab-token': 'a GitLab token',
  'slack-token': 'a Slack token',
  'anthropic-key': 'an Anthropic API key',
  'openai-key': 'an OpenAI API key',
  'aws-access-key': 'an AWS access key',
  'google-api-key': 'a Google API key',
  'npm-token': 'an npm token',
  'pypi-token': 'a PyPI token',
  jwt: 'a JSON Web Token',
  'url-credentials': 'a password in a URL',
  'authorization-header': 'an authorization header',
  'credential-value': 'a password or token'
}

/** The kind of secret in words ("a GitHub token"). */
export function describeSecretKind(kind: SecretKind): string {
  return KIND_TEXT[kind]
}

/** Tokens by their vendor's prefix; the capture group (or the whole match) is the secret. */
const TOKEN_SHAPES: Array<{ kind: SecretKind; pattern: RegExp }> = [
  { kind: 'private-key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*-----|$)/g },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})(?![A-Za-z0-9_])/g },
  { kind: 'gitlab-token', pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'anthropic-key', pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}/g },
  { kind: 'aws-access-key', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g },
  { kind: 'pypi-token', pattern: /(?<![A-Za-z0-9_-])pypi-[A-Za-z0-9_-]{50,}/g },
  { kind: 'jwt', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g }
]

/** `scheme://user:password@host`: the password is the secret (git remotes, database URLs). */
const URL_USERINFO = /\b[a-z][a-z0-9+.-]*:\/\/([^\s/:@'"<>]*):([^\s/@'"<>]+)@[^\s/'"<>]/gi
/** `Authorization: Basic …` / `Bearer …` (git's http.extraheader, curl configs). */
const AUTH_HEADER = /\bauthorization\s*:\s*(?:basic|bearer|token)\s+([A-Za-z0-9+/_.=~-]{8,})/gi

/** A key that names a credential (`password`, `_authToken`, `api_key`, `client_secret`, `npmAuthToken`…). */
const CREDENTIAL_KEY = /(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth|credential|private[_-]?key|connection[_-]?string|accountkey|sharedaccesskey)/i
/**
 * `key = value`, `key: value`, `"key": "value"` (env, INI, YAML, JSON, npmrc's `//host/:_authToken=`):
 * a key of letters, digits and `_.-`, then the value, quoted (any characters) or bare (one run).
 */
const ASSIGNMENT = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)["']?[ \t]*(?:=|:(?!\/\/))[ \t]*(?:"([^"\n]{4,})"|'([^'\n]{4,})'|([^\s"',;]{4,}))/g
/** netrc's `password VALUE` (and `passwd`), separated by blanks, anywhere on a line. */
const NETRC_PASSWORD = /(?<![A-Za-z0-9_])(?:password|passwd)[ \t]+(\S{1,})/g
/** Connection strings: `AccountKey=…;`, `Password=…;`. */
const CONNECTION_PART = /(?:^|;|")\s*(AccountKey|SharedAccessKey|Password|Pwd)\s*=\s*([^;"'\s]{4,})/gi

/** Values that stand for a secret without being one. */
const PLACEHOLDER =
  /^(?:[<[{($%]|.*\$\{|.*\}\}?$|process\.env|os\.environ|env\(|getenv|null$|none$|nil$|true$|false$|undefined$|changeme|change_me|example|your[_-]|xxx|\*{3,}|\.{3}|•|redacted|placeholder|secret$|password$|token$|dummy|test$|todo)/i

/** Names (basename, lower case) of files that commonly hold credentials, and the format of each. */
const CREDENTIAL_NAMES: Array<{ format: CredentialFormat; name: RegExp; under?: RegExp }> = [
  { format: 'dotenv', name: /^\.env(\..+)?$|^\.envrc$|^\.dev\.vars(\..+)?$/ },
  { format: 'git-config', name: /^config$/, under: /(^|\/)\.git(\/modules\/[^/]+)*$/ },
  { format: 'git-config', name: /^\.gitconfig$|^\.gitmodules$/ },
  { format: 'git-credentials', name: /^\.git-credentials$/ },
  { format: 'npmrc', name: /^\.npmrc$/ },
  { format: 'yarnrc', name: /^\.yarnrc(\.ya?ml)?$/ },
  { format: 'pypirc', name: /^\.pypirc$|^pip\.conf$|^pip\.ini$/ },
  { format: 'netrc', name: /^[._]netrc$/ },
  { format: 'settings-json', name: /(^|\.)settings\.json$|^appsettings(\.[^.]+)?\.json$/ },
  { format: 'docker-config', name: /^config\.json$/, under: /(^|\/)\.docker$/ },
  { format: 'aws-credentials', name: /^(credentials|config)$/, under: /(^|\/)\.aws$/ },
  { format: 'gcloud', name: /^(application_default_credentials\.json|credentials\.db|access_tokens\.db|legacy_credentials|adc\.json)$/ },
  { format: 'gcloud', name: /.*\.json$/, under: /(^|\/)\.config\/gcloud(\/.*)?$/ },
  { format: 'azure', name: /^(accesstokens\.json|msal_token_cache\.(json|bin)|azureprofile\.json|service_principal_entries\.json)$/ },
  { format: 'azure', name: /.*/, under: /(^|\/)\.azure(\/.*)?$/ }
]

/**
 * The credential format of a file, by its path (any separator, any case), or null: `.git/config`,
 * `.npmrc`, `.yarnrc.yml`, `.pypirc`, `.netrc`, `*.settings.json`, `.docker/config.json`, cloud
 * CLI configs, `.env*`. The name says where to look; `findSecretValues` says whether it holds one.
 */
export function credentialFormatOf(path: string): CredentialFormat | null {
  const normal = path.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase()
  const slash = normal.lastIndexOf('/')
  const base = normal.slice(slash + 1)
  const folder = slash < 0 ? '' : normal.slice(0, slash)
  if (/\.(example|sample|template|dist)$/.test(base)) return null
  for (const entry of CREDENTIAL_NAMES) {
    if (!entry.name.test(base)) continue
    if (entry.under && !entry.under.test(folder)) continue
    return entry.format
  }
  return null
}

/** Whether a file commonly holds credentials (its content decides whether this one does). */
export function isCredentialFile(path: string): boolean {
  return credentialFormatOf(path) !== null
}

export interface FindSecretOptions {
  /** The file the text came from: in a credential file, any real value in a credential position counts. */
  path?: string
}

/**
 * Every secret value in `text`, sorted, overlaps merged: token shapes anywhere; passwords in URLs;
 * authorization headers; values in credential positions (`password=`, `"token":`, netrc's
 * `password x`) — in a credential file whatever they look like, elsewhere only when they look random.
 */
export function findSecretValues(text: string, options: FindSecretOptions = {}): SecretSpan[] {
  const format = options.path ? credentialFormatOf(options.path) : null
  const spans: SecretSpan[] = []
  for (const { kind, pattern } of TOKEN_SHAPES) {
    for (const match of text.matchAll(pattern)) spans.push({ start: match.index, end: match.index + match[0].length, kind })
  }
  for (const match of text.matchAll(URL_USERINFO)) {
    const password = match[2]!
    if (isPlaceholder(password)) continue
    const start = match.index + match[0].indexOf(`:${password}@`, match[0].indexOf('://') + 3) + 1
    spans.push({ start, end: start + password.length, kind: 'url-credentials' })
  }
  for (const match of text.matchAll(AUTH_HEADER)) {
    const value = match[1]!
    const start = match.index + match[0].length - value.length
    spans.push({ start, end: start + value.length, kind: 'authorization-header' })
  }
  for (const match of text.matchAll(CONNECTION_PART)) {
    const value = match[2]!
    if (isPlaceholder(value) || (format === null && !looksRandom(value))) continue
    const start = match.index + match[0].length - value.length
    spans.push({ start, end: start + value.length, kind: 'credential-value' })
  }
  for (const match of text.matchAll(ASSIGNMENT)) {
    const key = match[1]!
    const quoted = match[2] ?? match[3]
    const value = quoted ?? match[4]!
    if (!CREDENTIAL_KEY.test(key) || isPlaceholder(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) continue
    // Outside credential files a credential position is common in code (`token = getToken()`): only random-looking literals count.
    if (format === null && !(quoted !== undefined && looksRandom(value))) continue
    const start = match.index + match[0].length - value.length - (quoted !== undefined ? 1 : 0)
    spans.push({ start, end: start + value.length, kind: 'credential-value' })
  }
  if (format === 'netrc') {
    for (const match of text.matchAll(NETRC_PASSWORD)) {
      const value = match[1]!
      const start = match.index + match[0].length - value.length
      spans.push({ start, end: start + value.length, kind: 'credential-value' })
    }
  }
  return mergeSpans(spans)
}

/** Whether `text` holds at least one secret value (see findSecretValues). */
export function containsSecretValue(text: string, options: FindSecretOptions = {}): boolean {
  return findSecretValues(text, options).length > 0
}

/** What replaces a secret value in text shown to the model. */
export const SECRET_VALUE_REDACTED = '[secret redacted]'

/** `text` with each span replaced by SECRET_VALUE_REDACTED. */
export function redactSecretSpans(text: string, spans: readonly SecretSpan[]): string {
  let result = ''
  let cursor = 0
  for (const span of mergeSpans([...spans])) {
    result += text.slice(cursor, span.start) + SECRET_VALUE_REDACTED
    cursor = span.end
  }
  return result + text.slice(cursor)
}

/** A short reason for a finding: "holds a GitHub token (line 3)". */
export function describeSecretSpans(text: string, spans: readonly SecretSpan[]): string {
  const first = spans[0]
  if (!first) return ''
  const line = text.slice(0, first.start).split('\n').length
  const more = spans.length > 1 ? ` and ${spans.length - 1} more` : ''
  return `holds ${describeSecretKind(first.kind)} (line ${line})${more}`
}

function isPlaceholder(value: string): boolean {
  const bare = value.replace(/^["']|["']$/g, '')
  return bare.length < 4 || PLACEHOLDER.test(bare) || /^(.)\1+$/.test(bare)
}

/** Long enough, with letters and digits, and of high Shannon entropy: what generated keys look like. */
function looksRandom(value: string): boolean {
  if (value.length < 16 || !/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) return false
  if (/^[a-z]+([._-][a-z]+)+$/i.test(value)) return false
  return shannonBits(value) >= 3.5
}

/** Shannon entropy in bits per character. */
export function shannonBits(value: string): number {
  const counts = new Map<string, number>()
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const p = count / value.length
    bits -= p * Math.log2(p)
  }
  return bits
}

function mergeSpans(spans: SecretSpan[]): SecretSpan[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: SecretSpan[] = []
  for (const span of spans) {
    const last = merged.at(-1)
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end)
    else merged.push({ ...span })
  }
  return merged
}
