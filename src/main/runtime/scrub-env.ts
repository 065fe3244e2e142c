/**
 * Environment variables whose names look like credentials are not passed to tool commands:
 * a prompt-injected `env | curl …` must not find the user's model key.
 */
const SECRET_NAME = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|SESSION)/i

export function scrubSecrets(env: NodeJS.ProcessEnv, allow: ReadonlySet<string> = new Set()): Record<string, string> {
  const clean: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (SECRET_NAME.test(name) && !allow.has(name)) continue
    clean[name] = value
  }
  return clean
}
