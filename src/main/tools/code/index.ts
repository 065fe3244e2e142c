/**
 * Code execution (docs/tools.md, "run_code"): Python and JavaScript snippets run through the
 * runtimes, in a sandbox or not according to the strictness level in Settings.
 */
import type { CodeStrictness } from '../../../shared'
import type { Runtime } from '../../runtime'
import { toolPack, type ToolSource } from '../source'
import { createRunCodeTool } from './run-code'
export { decideCodePlacement, looksForSandbox, SANDBOX_AVAILABILITY, type CodePlacement, type SandboxAvailability } from './placement'

/** A sandbox for code when the shell's runtime is native: docker, bwrap or sandbox-exec, never native (a fail-closed SelectedRuntime). */
export interface CodeSandbox extends Runtime {
  /** Null when a sandbox can run; else why none can. */
  unavailableReason(): Promise<string | null>
}

export interface CodeToolServices {
  /** The runtime the settings chose for shell commands. */
  runtime: Runtime
  /** Where code runs when that runtime is not a sandbox. */
  sandbox: CodeSandbox
  /** Settings → codeStrictness, read at each call. */
  strictness(): CodeStrictness
}

export function createCodeTools(services: CodeToolServices): ToolSource {
  return toolPack('code', [createRunCodeTool(services)])
}
