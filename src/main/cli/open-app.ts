import { DeskclawApp, defaultDataDir, settingsFromEnv, type AppConfig } from '../app'
import type { CommonArgs } from './args'

/**
 * The app as `run` and `web` build it: the data folder, then the environment, then the flags. MCP
 * servers do not start with it (a command that needs them waits for `mcp.ready()`); `web` asks for them.
 */
export function openApp(
  args: CommonArgs,
  defaults: { workspace?: string } = {},
  config: Pick<AppConfig, 'confirmSetting' | 'runSchedules' | 'startMcpServers'> = {}
): DeskclawApp {
  return DeskclawApp.create({
    dataDir: args.dataDir ?? defaultDataDir(),
    overrides: { ...defaults, ...settingsFromEnv(process.env), ...args.overrides },
    startMcpServers: false,
    ...config
  })
}
