import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { ProjectCheckCommands } from '../../../shared'

/** What a check is for: the project's linter, its type checker, its tests. */
export const CHECK_KINDS = ['lint', 'typecheck', 'test'] as const
export type CheckKind = (typeof CHECK_KINDS)[number]

/** A command the project itself declares (or a tool its manifest configures), and where it was found. */
export interface ProjectCheck {
  command: string
  source: string
  /** Set for this workspace in Settings (Settings.projectChecks), not found in a manifest. */
  fromSettings?: boolean
}

/** The source of a command set in Settings. */
export const SETTINGS_SOURCE = 'set in Settings'

/**
 * The project's own command for `kind` (docs/tools.md, "lint"): the one set for this workspace in
 * Settings (`configured`, by folder; its real path counts too), else as a developer would find it:
 * package.json scripts (lint, typecheck / type-check / tsc, test), pyproject.toml (ruff,
 * mypy, pytest), Cargo.toml (cargo clippy / check / test), go.mod (go vet / build / test). Null
 * when the project declares none: nothing is guessed beyond these manifests.
 */
export function findProjectCheck(workspace: string, kind: CheckKind, configured: Readonly<Record<string, ProjectCheckCommands>> = {}): ProjectCheck | null {
  return fromSettings(workspace, kind, configured) ?? fromPackageJson(workspace, kind) ?? fromPyproject(workspace, kind) ?? fromCargo(workspace, kind) ?? fromGoMod(workspace, kind)
}

function fromSettings(workspace: string, kind: CheckKind, configured: Readonly<Record<string, ProjectCheckCommands>>): ProjectCheck | null {
  const command = (configured[workspace] ?? configured[realPathOf(workspace)] ?? configured[workspace.replace(/[\\/]+$/, '')])?.[kind]?.trim()
  return command ? { command, source: SETTINGS_SOURCE, fromSettings: true } : null
}

function realPathOf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

const SCRIPT_NAMES: Record<CheckKind, string[]> = { lint: ['lint'], typecheck: ['typecheck', 'type-check', 'tsc', 'types'], test: ['test'] }

function fromPackageJson(workspace: string, kind: CheckKind): ProjectCheck | null {
  const text = readIfPresent(join(workspace, 'package.json'))
  if (text === null) return null
  let scripts: Record<string, unknown> = {}
  try {
    scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts ?? {}
  } catch {
    return null
  }
  const name = SCRIPT_NAMES[kind].find((n) => typeof scripts[n] === 'string')
  // --silent: npm's own banner lines would otherwise read as output of the check.
  return name ? { command: `npm run --silent ${name}`, source: `package.json scripts.${name}` } : null
}

function fromPyproject(workspace: string, kind: CheckKind): ProjectCheck | null {
  const text = readIfPresent(join(workspace, 'pyproject.toml'))
  if (text === null) return null
  const has = (section: string) => new RegExp(`^\\[tool\\.${section}[\\].]`, 'm').test(text)
  if (kind === 'lint' && has('ruff')) return { command: 'ruff check --output-format concise .', source: 'pyproject.toml [tool.ruff]' }
  if (kind === 'typecheck' && has('mypy')) return { command: 'mypy .', source: 'pyproject.toml [tool.mypy]' }
  if (kind === 'test' && (has('pytest') || existsSync(join(workspace, 'tests')))) return { command: 'python3 -m pytest -q', source: 'pyproject.toml (pytest)' }
  return null
}

function fromCargo(workspace: string, kind: CheckKind): ProjectCheck | null {
  if (!existsSync(join(workspace, 'Cargo.toml'))) return null
  const command = { lint: 'cargo clippy --message-format short', typecheck: 'cargo check --message-format short', test: 'cargo test' }[kind]
  return { command, source: 'Cargo.toml' }
}

function fromGoMod(workspace: string, kind: CheckKind): ProjectCheck | null {
  if (!existsSync(join(workspace, 'go.mod'))) return null
  const command = { lint: 'go vet ./...', typecheck: 'go build ./...', test: 'go test ./...' }[kind]
  return { command, source: 'go.mod' }
}

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
