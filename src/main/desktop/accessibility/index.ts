/**
 * Accessibility backends (docs/desktop.md, "Accessibility backends"): one interface for reading an
 * application's widgets — AT-SPI on Linux; UI Automation (Windows) and AX (macOS) not implemented yet.
 */
import { AtspiBackend, type AtspiOptions } from './atspi/backend'
import type { AccessibilityBackend } from './types'
import { unsupportedAccessibility } from './unsupported'

export function accessibilityBackend(platform: NodeJS.Platform = process.platform, options: AtspiOptions = {}): AccessibilityBackend {
  if (platform === 'linux') return new AtspiBackend(options)
  if (platform === 'win32') return unsupportedAccessibility('uia', platform)
  if (platform === 'darwin') return unsupportedAccessibility('ax', platform)
  return unsupportedAccessibility('none', platform)
}

export { AtspiBackend, type AtspiOptions } from './atspi/backend'
export { ACCESSIBILITY_FAILURE_TEXT, describeAccessibilityFailure, type AccessibilityLanguage } from './messages'
export { findNodes, matchesQuery, pathTo, pickWindow, walkNodes, type NodeQuery } from './queries'
export { formatAccessibleTree } from './format'
export * from './types'
