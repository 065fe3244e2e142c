import type { CodeStrictness } from '../../../shared'

/**
 * Whether a sandbox can run a snippet here: the runtime chosen for shell commands is one
 * (`selected`), it is native but another sandbox can run (`other`), or none can (`none`).
 */
export const SANDBOX_AVAILABILITY = ['selected', 'other', 'none'] as const
export type SandboxAvailability = (typeof SANDBOX_AVAILABILITY)[number]

/** Where a snippet runs, or why it does not (docs/tools.md, "run_code"). */
export type CodePlacement =
  | {
      kind: 'run'
      /** The shell tool's runtime, or the sandbox found for code when that runtime is native. */
      runtime: 'selected' | 'sandbox'
      workspace: 'read-only' | 'writable'
      /** In a sandbox: no network, only the workspace mounted. False: natively, network and all. */
      sandboxed: boolean
    }
  | { kind: 'refuse'; reason: 'strict-needs-sandbox' }

const IN_SELECTED_SANDBOX = (workspace: 'read-only' | 'writable'): CodePlacement => ({ kind: 'run', runtime: 'selected', workspace, sandboxed: true })
const IN_OTHER_SANDBOX = (workspace: 'read-only' | 'writable'): CodePlacement => ({ kind: 'run', runtime: 'sandbox', workspace, sandboxed: true })
const NATIVELY: CodePlacement = { kind: 'run', runtime: 'selected', workspace: 'writable', sandboxed: false }

/**
 * The whole decision, level × availability, as one table (a generator test walks every cell):
 * strict never runs outside a sandbox and never with the workspace writable; standard prefers a
 * sandbox and runs natively (after the approval said so) only when none can run; trusted runs in
 * the runtime chosen for shell commands, whatever it is.
 */
const PLACEMENTS: Readonly<Record<CodeStrictness, Readonly<Record<SandboxAvailability, CodePlacement>>>> = {
  strict: { selected: IN_SELECTED_SANDBOX('read-only'), other: IN_OTHER_SANDBOX('read-only'), none: { kind: 'refuse', reason: 'strict-needs-sandbox' } },
  standard: { selected: IN_SELECTED_SANDBOX('writable'), other: IN_OTHER_SANDBOX('writable'), none: NATIVELY },
  trusted: { selected: IN_SELECTED_SANDBOX('writable'), other: NATIVELY, none: NATIVELY }
}

export function decideCodePlacement(level: CodeStrictness, availability: SandboxAvailability): CodePlacement {
  return PLACEMENTS[level][availability]
}

/**
 * Whether the level's placement depends on a sandbox other than the shell's runtime (standard
 * and strict do; trusted runs in the shell's runtime whatever else could run): only then is one
 * looked for. Read from the table itself, so it cannot disagree with it.
 */
export function looksForSandbox(level: CodeStrictness): boolean {
  return JSON.stringify(PLACEMENTS[level].other) !== JSON.stringify(PLACEMENTS[level].none)
}
