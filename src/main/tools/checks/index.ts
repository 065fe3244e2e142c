/**
 * The project's own checks: its linter, type checker and tests, found in its manifests, run by the
 * shell tool's runtime, their output parsed into file/line diagnostics (docs/tools.md, "lint").
 */
import { toolPack, type ToolSource } from '../source'
import { createLintTool, type CheckToolServices } from './lint'

export type { CheckToolServices } from './lint'

export function createCheckTools(services: CheckToolServices): ToolSource {
  return toolPack('checks', [createLintTool(services.runtime, services.projectChecks ?? (() => ({})))])
}
