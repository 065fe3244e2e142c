/**
 * git, judged by its spec table (git-spec.ts) in the repository it will really use (docs/risk.md,
 * items 7 and 8): `-C DIR` moves it, a repository's own config that runs programs makes even
 * `git status` ask, and files read from history (`git show REV:path`, `git grep`, `git log -p --
 * PATHSPEC`, `git cat-file --batch`) are judged like the files they were.
 */
import { displayPath, isInside, normalise, resolveReal, secretPathReason, secretUnder } from '../paths'
import type { AddFinding, Invocation } from './analysis'
import { pathspecSecretReason } from './git-pathspec'
import { printsRemoteUrls } from './git-remote-secrets'
import { GIT_CONTENT_READERS, GIT_SPEC } from './git-spec'
import { checkOnePath, type PathJudging } from './path-checks'
import { GIT_GLOBAL_WITH_VALUE, GIT_RISKY_GLOBAL } from './programs'
import { currentCwd } from './scope'
import { matchSpec } from './spec'
import { literalPipedText } from './stdin-checks'
import type { Word } from './words'

export function classifyGit(a: PathJudging, argv: Word[], add: AddFinding, unitAdd: AddFinding): void {
  const { scope } = a
  const { ctx } = scope
  let i = 1
  while (i < argv.length) {
    const v = argv[i]!.value
    if (v === null || !v.startsWith('-')) break
    if (GIT_RISKY_GLOBAL.test(v)) add('shell.git-config', `git ${v} can make git run other programs.`, 'ask', argv[i]!)
    // `git -C DIR` works in DIR: paths and REV:path reads are judged there.
    const dir = v === '-C' ? argv[i + 1]?.value : null
    if (dir) scope.cwds.push(resolveReal(normalise(dir, ctx, currentCwd(scope))))
    i += GIT_GLOBAL_WITH_VALUE.has(v) ? 2 : 1
  }
  // The repository git will really use: the workspace's, or a nested or bare one reached by cd or -C (docs/risk.md, item 3).
  for (const cwd of new Set(scope.cwds)) {
    const configRisk = ctx.gitConfigRisk?.(cwd)
    if (configRisk) {
      add('shell.git-config', configRisk, 'ask', argv[0]!)
      break
    }
  }
  const sub = argv[i]
  if (sub?.value === null) {
    add('shell.dynamic-command', 'The git subcommand is only known when the command runs.', 'ask', sub)
    return
  }
  // A credential in a remote URL is what `git remote -v` and `git config --get remote.origin.url` print (docs/risk.md, "Secrets").
  if (sub && printsRemoteUrls(sub.value, argv.slice(i + 1).map((w) => w.value))) {
    const secret = [...new Set(scope.cwds)].map((cwd) => ctx.gitConfigSecret?.(cwd)).find((reason) => reason)
    if (secret) add('path.secret-content', secret, 'ask', sub)
  }
  const match = matchSpec('git', GIT_SPEC, argv.slice(1).map((w) => w.value))
  if (!match.ok) unitAdd('shell.git-write', `${match.why}.`, 'ask', sub ?? argv[0]!)
  else {
    a.evidence.specs.push(match.entry)
    for (const read of match.entry.reads) checkOnePath(a, read, sub ?? argv[0]!, add, false, 'contents')
  }
  if (!sub) return
  // Reading file contents from a repository outside the workspace (`git -C ~ grep …`) asks like any read there.
  if (GIT_CONTENT_READERS.has(sub.value)) checkGitContentRead(a, argv, i, add)
  checkGitObjectPaths(a, argv.slice(i + 1), add)
}

/** A subcommand that reads file contents (`git grep`, `git log -p`): secret pathspecs, repositories outside, secrets under what grep searches. */
function checkGitContentRead(a: PathJudging, argv: Word[], i: number, add: AddFinding): void {
  const { scope } = a
  const { ctx } = scope
  const sub = argv[i]!
  for (const word of argv.slice(i + 1)) {
    const reason = word.value !== null && !word.value.startsWith('-') ? pathspecSecretReason(word.value) : null
    if (reason) {
      add('path.sensitive', `git ${sub.value}: ${reason}.`, 'ask', word)
      break
    }
  }
  const outside = scope.cwds.find((cwd) => !isInside(resolveReal(cwd), ctx.workspace))
  if (outside) add('path.outside-read', `git ${sub.value} reads files of a repository outside the workspace (${displayPath(outside, ctx)}).`, 'ask', sub)
  if (sub.value === 'grep') {
    const after = argv.slice(i + 1).map((w) => w.value)
    const dashes = after.indexOf('--')
    const roots = dashes >= 0 ? after.slice(dashes + 1).filter((v): v is string => v !== null) : ['.']
    for (const root of roots) {
      const hit = secretUnder(resolveReal(normalise(root, ctx, currentCwd(scope))), ctx, { hidden: true })
      if (hit) {
        add('path.sensitive', `git grep reaches ${hit}, which usually holds secrets.`, 'ask', sub)
        break
      }
    }
  }
}

/**
 * `git show REV:path`, `git cat-file -p REV:path`: a file's contents from history. A secret-shaped
 * path asks as in the working tree; so does a repository outside the workspace (`git -C ~ …`).
 */
function checkGitObjectPaths(a: PathJudging, args: Word[], add: AddFinding): void {
  const { ctx } = a.scope
  for (const word of args) {
    const value = word.value
    const colon = value?.indexOf(':') ?? -1
    if (value === null || colon < 0 || /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('-')) continue
    const inRepo = value.slice(colon + 1).replace(/^\.\//, '')
    if (!inRepo) continue
    for (const cwd of a.scope.cwds) {
      const absolute = normalise(inRepo, ctx, cwd)
      const secret = secretPathReason(absolute, ctx)
      if (secret) return add('path.sensitive', `${secret} (read from git history).`, 'ask', word)
      if (!isInside(resolveReal(cwd), ctx.workspace)) {
        return add('path.outside-read', `Reads ${inRepo} from a repository outside the workspace.`, 'ask', word)
      }
    }
  }
}

/**
 * `git cat-file --batch` reads object names (`HEAD:.env`) from stdin: literal text (a heredoc, `echo … |`) is
 * judged as `git show REV:path` would be; names from anywhere else are unseen and ask. `--batch-all-objects`
 * alone names every object, as `git log -p` does.
 */
export function checkGitStdinObjects(a: PathJudging, inv: Invocation, argv: Word[], add: AddFinding, unitAdd: AddFinding): void {
  const values = argv.map((w) => w.value)
  const sub = values.findIndex((v, k) => k > 0 && v === 'cat-file')
  if (sub < 0 || !values.some((v) => v !== null && /^--batch(-check|-command)?(=|$)/.test(v))) return
  if (values.includes('--batch-all-objects')) return
  const fed = inv.stdinText ?? (inv.pipedFrom.length > 0 ? literalPipedText(inv) : '')
  if (fed === null) {
    unitAdd('shell.unknown-option', 'git cat-file --batch reads the objects named on its input, which nobody has seen.', 'ask', argv[sub]!)
    return
  }
  const names = fed.split(/\s+/).filter(Boolean)
  const words = names.map((value): Word => ({ ...argv[sub]!, value }))
  checkGitObjectPaths(a, words, add)
}
