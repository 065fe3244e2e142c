import { commandEnv, type ModelKeys } from '../runtime'

export interface StdioEnvOptions {
  /** Names the user let commands see (Settings → environment variables); MCP servers see them too. */
  allowEnv: readonly string[]
  modelKeys?: () => ModelKeys
  appEnv?: NodeJS.ProcessEnv
}

/**
 * What a stdio server starts with (docs/tools.md, "MCP servers"): the same allowlist a command gets
 * on the host (docs/runtimes.md, "The environment allowlist"), never the model's key — plus exactly
 * what its entry in mcp.json names, which the user wrote for it (a server's own token).
 */
export function stdioServerEnv(own: Record<string, string> | undefined, options: StdioEnvOptions): Record<string, string> {
  const base = commandEnv({ runtime: 'native', allowEnv: options.allowEnv, modelKeys: options.modelKeys, appEnv: options.appEnv })
  return { ...base, ...own }
}
