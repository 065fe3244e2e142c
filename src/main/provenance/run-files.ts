/**
 * Files whose text later runs or instructs (docs/risk.md, "Provenance"): git hooks, editor task
 * configs, package scripts, shell start-up files, CI definitions. A write to one persists
 * instructions, whatever the tool that writes it.
 */
import type { CallSink } from './kinds'

const RUN_FILE_PATTERNS: readonly RegExp[] = [
  /(^|\/)\.git\/hooks\//,
  /(^|\/)\.git\/config$/,
  /(^|\/)\.husky\//,
  /(^|\/)\.vscode\/(tasks|launch|settings)\.json$/,
  /(^|\/)\.idea\/(workspace|runConfigurations)/,
  /(^|\/)package\.json$/,
  /(^|\/)\.npmrc$/,
  /(^|\/)(\.bashrc|\.bash_profile|\.bash_login|\.profile|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.envrc)$/,
  /(^|\/)\.config\/fish\/config\.fish$/,
  /(^|\/)\.github\/workflows\//,
  /(^|\/)\.gitlab-ci\.ya?ml$/,
  /(^|\/)\.circleci\//,
  /(^|\/)(Jenkinsfile|azure-pipelines\.ya?ml|\.travis\.ya?ml)$/,
  /(^|\/)\.pre-commit-config\.ya?ml$/,
  /(^|\/)(Makefile|makefile|GNUmakefile|justfile|Taskfile\.ya?ml)$/,
  /(^|\/)\.gitattributes$/,
  /(^|\/)(setup\.py|conftest\.py|pyproject\.toml|tox\.ini|noxfile\.py)$/,
  /(^|\/)(\.cargo\/config(\.toml)?|build\.rs)$/,
  /(^|\/)crontab$/,
  /(^|\/)\.config\/autostart\//,
  /(^|\/)Library\/LaunchAgents\//
]

/** True when the file at `path` (as written, `\` or `/`) is one whose text runs later. */
export function isRunFile(path: string): boolean {
  const normal = path.replace(/\\/g, '/').replace(/\/+$/, '')
  return RUN_FILE_PATTERNS.some((pattern) => pattern.test(normal))
}

/** The sink of a write to `path`: persisting instructions when the file runs, none otherwise. */
export function fileWriteSink(path: string | undefined): CallSink {
  return typeof path === 'string' && isRunFile(path) ? { kind: 'persist', via: 'run_file', target: path } : { kind: 'none' }
}
