import type { Page } from 'playwright-core'

/**
 * Opens a section of the Settings panel (issue 22, item 9: one page per section): clicks its tab
 * in the section menu and waits for its page. Settings must be open.
 */
export async function openSettingsSection(page: Page, id: 'general' | 'model' | 'safety' | 'desktop' | 'chatApps' | 'mcp' | 'web' | 'prices' | 'checkpoints' | 'checks'): Promise<void> {
  await page.getByTestId(`settings-section-tab-${id}`).click()
  await page.getByTestId(`settings-page-${id}`).waitFor({ state: 'visible' })
}
