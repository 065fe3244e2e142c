import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The user-data folder: DESKCLAW_HOME, else the platform's config folder (what Electron's userData is).
 * A module of its own, so `deskclaw risk` and `audit` find it without loading the settings' defaults
 * from every service (docs/benchmarks.md, "CLI start-up").
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DESKCLAW_HOME) return env.DESKCLAW_HOME
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'DeskClaw')
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'DeskClaw')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'DeskClaw')
}
