/**
 * Windows (UI Automation) and macOS (AX) behind the same interface, not implemented yet: every call
 * answers `unsupported_os` (docs/desktop.md, "Accessibility backends" says what is untested).
 */
import { failure, type AccessibilityBackend } from './types'

export function unsupportedAccessibility(kind: 'uia' | 'ax' | 'none', platform: string): AccessibilityBackend {
  const no = failure('unsupported_os', `${kind === 'none' ? platform : kind} on ${platform}: not implemented on this OS yet`)
  const answer = async () => no
  return {
    kind,
    windows: answer,
    findWindow: answer,
    tree: answer,
    node: answer,
    activate: answer,
    select: answer,
    focus: answer,
    setText: answer,
    close: async () => {}
  }
}
