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

/**
 * The environment a host-side command (native, bwrap, sandbox-exec) gets: the app's own, scrubbed,
 * except the variables the user let through, plus what the request adds.
 */
export function hostCommandEnv(allowEnv: readonly string[] = [], extra: Record<string, string> = {}): Record<string, string> {
  return { ...scrubSecrets(process.env, new Set(allowEnv)), ...extra }
}
