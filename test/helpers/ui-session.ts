import type { Browser, Page } from 'playwright-core'
import type { Settings } from '../../src/shared'
import type { AppConfig } from '../../src/main/app'
import { startWebHost, type WebHost } from '../../src/main/bridge'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { openBrowser, rendererDir } from './browser'
import { createTempApp, type TempApp } from './temp-app'

export interface UiSession {
  server: ScriptedServer
  temp: TempApp
  host: WebHost
  browser: Browser
  page: Page
  close(): Promise<void>
}

/** A scripted model server, a real app over it, the web host and a Chromium page: the whole UI path. */
export async function startUiSession(
  script: ScriptStep[],
  overrides: Partial<Settings> = {},
  config: Pick<AppConfig, 'runtimeProbe' | 'toolSources' | 'localServers'> = {},
  /** The app's environment (a test display's DISPLAY for the desktop tools). */
  env: NodeJS.ProcessEnv = {}
): Promise<UiSession> {
  const server = await startScriptedOpenAI(script)
  const temp = createTempApp(server.url, overrides, env, config)
  const host = await startWebHost({ app: temp.app, rendererDir })
  const { browser, page } = await openBrowser()
  return {
    server,
    temp,
    host,
    browser,
    page,
    async close() {
      await browser.close()
      await host.close()
      await temp.dispose()
      await server.close()
    }
  }
}
