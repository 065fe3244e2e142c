/**
 * Every spec that can allow a command, in one list (docs/risk.md, "Program specs"): the generator
 * test walks it, so an entry added to any table later is proved with the rest.
 */
import { CMD_SPECS } from './cmd'
import { GIT_SPEC } from './git-spec'
import { WRAPPERS } from './programs'
import { SAFE_PROGRAMS } from './safe-programs'
import type { ProgramSpec } from './spec'
import { versionPrograms, versionSpecFor } from './version-spec'
import { WINDOWS_READ_SPECS } from './windows-reads'

export interface RegisteredSpec {
  /** Which table it comes from. */
  table: 'programs' | 'version' | 'git' | 'cmd' | 'powershell' | 'wrappers'
  /** The shell whose lines reach this spec: cmd.exe's own commands are judged by cmd's rules. */
  shell?: 'cmd'
  program: string
  /** The words between the program and the spec's own arguments (`['log']` for git log). */
  path: string[]
  spec: ProgramSpec
  /** Words that make a line reach this spec (cmd's `type` on the sh side only with a Windows path). */
  reach?: string[]
  /** Words after the spec's own that complete the line (a wrapper's command: `timeout 5 ls`). */
  tail?: string[]
}

export function registeredSpecs(): RegisteredSpec[] {
  const out: RegisteredSpec[] = []
  for (const [program, spec] of SAFE_PROGRAMS) out.push({ table: 'programs', program, path: [], spec })
  for (const program of versionPrograms()) out.push({ table: 'version', program, path: [], spec: versionSpecFor(program)! })
  out.push({ table: 'git', program: 'git', path: [], spec: GIT_SPEC })
  for (const [name, spec] of Object.entries(GIT_SPEC.commands ?? {})) out.push({ table: 'git', program: 'git', path: [name], spec })
  for (const [program, spec] of CMD_SPECS) out.push({ table: 'cmd', program, path: [], spec, shell: 'cmd' })
  for (const [program, spec] of WINDOWS_READ_SPECS) {
    out.push({ table: 'powershell', program, path: [], spec, ...(program === 'type' || program === 'where' ? { reach: ['C:\\x'] } : {}) })
  }
  for (const [program, wrapper] of WRAPPERS) {
    if (wrapper.spec) out.push({ table: 'wrappers', program, path: [], spec: wrapper.spec, tail: program === 'timeout' ? ['5', 'ls'] : ['ls'] })
  }
  return out
}
