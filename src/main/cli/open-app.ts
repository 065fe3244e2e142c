import { DeskclawApp, defaultDataDir, settingsFromEnv, type AppConfig } from '../app'
import type { CommonArgs } from './args'

/** The app as `run` and `web` build it: the data folder, then the environment, then the flags. */
export function openApp(args: CommonArgs, defaults: { workspace?: string } = {}, config: Pick<AppConfig, 'confirmSetting' | 'runSchedules'> = {}): DeskclawApp {
  return DeskclawApp.create({
    dataDir: args.dataDir ?? defaultDataDir(),
    overrides: { ...defaults, ...settingsFromEnv(process.env), ...args.overrides },
    ...config
  })
}
