/**
 * Code execution (docs/tools.md, "run_code"): Python and JavaScript snippets run through the
 * runtimes, in a sandbox or not according to the strictness level in Settings.
 */
import { toolPack, type ToolSource } from '../source'
import { createRunCodeTool, type CodeToolServices } from './run-code'
export { decideCodePlacement, looksForSandbox, SANDBOX_AVAILABILITY, type CodePlacement, type SandboxAvailability } from './placement'

export type { CodeSandbox, CodeToolServices } from './run-code'

export function createCodeTools(services: CodeToolServices): ToolSource {
  return toolPack('code', [createRunCodeTool(services)])
}
