/**
 * Every spec that can allow a command, in one list (docs/risk.md, "Program specs"): the generator
 * test walks it, so an entry added to any table later is proved with the rest.
 */
import { CMD_SPECS } from './cmd'
import { GIT_SPEC } from './git-spec'
import { SAFE_PROGRAMS } from './safe-programs'
import type { ProgramSpec } from './spec'
import { versionPrograms, versionSpecFor } from './version-spec'

export interface RegisteredSpec {
  /** Which table it comes from. */
  table: 'programs' | 'version' | 'git' | 'cmd'
  /** The shell whose lines reach this spec: cmd.exe's own commands are judged by cmd's rules. */
  shell?: 'cmd'
  program: string
  /** The words between the program and the spec's own arguments (`['log']` for git log). */
  path: string[]
  spec: ProgramSpec
}

export function registeredSpecs(): RegisteredSpec[] {
  const out: RegisteredSpec[] = []
  for (const [program, spec] of SAFE_PROGRAMS) out.push({ table: 'programs', program, path: [], spec })
  for (const program of versionPrograms()) out.push({ table: 'version', program, path: [], spec: versionSpecFor(program)! })
  out.push({ table: 'git', program: 'git', path: [], spec: GIT_SPEC })
  for (const [name, spec] of Object.entries(GIT_SPEC.commands ?? {})) out.push({ table: 'git', program: 'git', path: [name], spec })
  for (const [program, spec] of CMD_SPECS) out.push({ table: 'cmd', program, path: [], spec, shell: 'cmd' })
  return out
}
