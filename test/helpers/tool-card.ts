import type { Locator } from 'playwright-core'

/**
 * Opens a tool card and keeps it open (issue 22, item 8: a finished call is one line until
 * opened). A card open by itself (running, waiting, failed) is folded and opened again, so it
 * stays open once the call finishes. Returns the card.
 */
export async function openToolCard(card: Locator): Promise<Locator> {
  const header = card.locator('.tool-call-header')
  await header.waitFor()
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.click()
  await header.click()
  await card.locator('.tool-call-body').waitFor()
  return card
}
