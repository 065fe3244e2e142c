/**
 * Tests that need something from the machine (Chromium, Docker, Xvfb…) skip with the reason
 * printed when it is missing — unless DESKCLAW_REQUIRE_ALL=1 (set by .ci/run), which turns
 * every such skip into a failure so CI cannot pass by skipping.
 */
export function requireCapability(name: string, available: boolean, howToGet: string): boolean {
  if (available) return true
  const message = `${name} is not available here: ${howToGet}`
  if (process.env.DESKCLAW_REQUIRE_ALL === '1') {
    throw new Error(`${message} (DESKCLAW_REQUIRE_ALL=1 forbids skipping)`)
  }
  console.warn(`[skip] ${message}`)
  return false
}
