/**
 * The project's own checks: its linter, type checker and tests, found in its manifests, run by the
 * shell tool's runtime, their output parsed into file/line diagnostics (docs/tools.md, "lint").
 */
import type { ProjectCheckCommands } from '../../../shared'
import type { Runtime } from '../../runtime'
import { toolPack, type ToolSource } from '../source'
import { createLintTool } from './lint'

export interface CheckToolServices {
  /** Where the checks run; the shell tool's runtime. */
  runtime: Runtime
  /** Check commands set per workspace in Settings, consulted before the manifests. */
  projectChecks?(): Readonly<Record<string, ProjectCheckCommands>>
}

export function createCheckTools(services: CheckToolServices): ToolSource {
  return toolPack('checks', [createLintTool(services.runtime, services.projectChecks ?? (() => ({})))])
}
