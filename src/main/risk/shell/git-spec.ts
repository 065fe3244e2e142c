/**
 * git as a spec like every other allow path (docs/risk.md, "Program specs"): its global options,
 * then one read-only subcommand with the options known to be safe for it. git's parse-options
 * also takes unambiguous prefixes (`--outp` is `--output`) and bundles (`-vu`); only full names
 * and listed letters are allowed, so those ask. Any subcommand not here asks.
 */
import type { Args, ProgramSpec } from './spec'

/** Options of git's history and diff readers: formatting, selection, diff shape. `--output`, `--ext-diff`, `--textconv` are not here. */
const HISTORY: ProgramSpec = {
  reads: 'none',
  flags: 'pnuwbzRMCDBlWstTcmv',
  valued: 'nUSGLOg',
  numeric: true,
  long: [
    'oneline', 'graph', 'stat', 'shortstat', 'numstat', 'name-only', 'name-status', 'patch', 'no-patch', 'all', 'decorate', 'no-decorate',
    'abbrev-commit', 'no-abbrev-commit', 'no-color', 'color', 'follow', 'reverse', 'first-parent', 'merges', 'no-merges', 'cached', 'staged',
    'word-diff', 'color-words', 'ignore-space-change', 'ignore-all-space', 'ignore-blank-lines', 'ignore-space-at-eol', 'relative', 'left-right',
    'cherry-pick', 'cherry-mark', 'boundary', 'topo-order', 'date-order', 'author-date-order', 'full-history', 'summary', 'raw', 'patch-with-stat',
    'minimal', 'histogram', 'patience', 'no-renames', 'find-renames', 'find-copies', 'branches', 'tags', 'remotes', 'source', 'compact-summary',
    'dirstat', 'full-index', 'binary', 'exit-code', 'quiet', 'check', 'no-walk', 'walk-reflogs', 'children', 'parents', 'simplify-by-decoration',
    'no-prefix', 'cc', 'regexp-ignore-case', 'all-match', 'invert-grep', 'extended-regexp', 'fixed-strings', 'perl-regexp', 'no-notes',
    'pretty', 'no-abbrev', 'abbrev', 'notes', 'ignore-submodules', 'ita-invisible-in-index', 'no-ext-diff', 'no-textconv', 'expand-tabs',
    'no-expand-tabs', 'use-mailmap', 'mailmap', 'log-size', 'count', 'single-worktree', 'ancestry-path', 'show-pulls', 'dense', 'sparse',
    'remerge-diff', 'unified', 'function-context', 'text', 'merge-base', 'submodule', 'line-prefix', 'objects', 'not', 'header', 'timestamp'
  ],
  longValued: [
    'format', 'pretty', 'since', 'until', 'after', 'before', 'author', 'committer', 'grep', 'date', 'max-count', 'skip', 'diff-filter',
    'unified', 'stat', 'decorate', 'color', 'abbrev', 'word-diff', 'relative', 'find-renames', 'find-copies', 'dirstat', 'encoding',
    'diff-algorithm', 'min-age', 'max-age', 'branches', 'tags', 'remotes', 'glob', 'exclude', 'ignore-submodules', 'submodule',
    'word-diff-regex', 'color-moved', 'inter-hunk-context', 'stat-width', 'stat-name-width', 'stat-count', 'notes', 'decorate-refs',
    'decorate-refs-exclude', 'line-prefix', 'src-prefix', 'dst-prefix', 'anchored', 'ignore-matching-lines'
  ],
  unsafe: { output: 'written', 'ext-diff': 'code', textconv: 'code', 'show-signature': 'code', 'output-directory': 'written', o: 'written' },
  safeForms: [['--oneline', '-n', '3'], ['--stat'], ['-p', 'HEAD~1']]
}

/** `git config NAME`, `--get NAME`, `get NAME`, `list`: one key or the list; any set, unset or edit asks. */
const CONFIG: ProgramSpec = {
  reads: 'none',
  flags: 'lz',
  long: ['get', 'get-all', 'get-regexp', 'list', 'show-origin', 'show-scope', 'global', 'system', 'local', 'worktree', 'name-only', 'null', 'includes', 'no-includes'],
  longValued: ['type', 'default', 'file', 'blob'],
  roles: { file: 'read' },
  unsafe: { edit: 'code', e: 'code', unset: 'written', 'unset-all': 'written', add: 'written', 'replace-all': 'written', 'remove-section': 'written', 'rename-section': 'written' },
  check: (args) => {
    const operands = args.filter((a) => a === null || !a.startsWith('-'))
    // git 2.46's `git config get NAME` / `git config list`; the old form takes one NAME.
    const verb = operands[0]
    const rest = verb === 'get' || verb === 'list' ? operands.slice(1) : operands
    if (verb === 'list' && rest.length > 0) return 'config list takes no operand'
    return rest.length > 1 ? 'config with a value sets it' : null
  },
  safeForms: [['user.name'], ['--get', 'user.email'], ['--list']]
}

/** Operands are allowed only with one of these options (`git branch --list 'fix*'`); otherwise an operand creates. */
const listOnly = (...listing: string[]) => (args: Args): string | null => {
  const operands = operandsOf(args, new Set(['--contains', '--no-contains', '--points-at', '--sort', '--format', '--merged', '--no-merged', '--color', '--column', '--abbrev']))
  return operands.length > 0 && !args.some((a) => a !== null && listing.includes(a)) ? 'with a name it creates, renames or deletes' : null
}

function operandsOf(args: Args, valued: ReadonlySet<string>): Array<string | null> {
  const out: Array<string | null> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === null || a === undefined || !a.startsWith('-') || a === '-') out.push(a ?? null)
    else if (valued.has(a)) i++
  }
  return out
}

const BRANCH: ProgramSpec = {
  reads: 'none',
  flags: 'arvlq',
  long: ['all', 'remotes', 'verbose', 'list', 'quiet', 'show-current', 'no-color', 'color', 'column', 'no-column', 'ignore-case', 'omit-empty', 'merged', 'no-merged'],
  longValued: ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'abbrev', 'color', 'column'],
  unsafe: { d: 'written', D: 'written', m: 'written', M: 'written', c: 'written', C: 'written', f: 'written', u: 'written', t: 'written', delete: 'written', move: 'written', copy: 'written', force: 'written', 'set-upstream-to': 'written', 'unset-upstream': 'written', 'edit-description': 'code', track: 'written', 'create-reflog': 'written' },
  check: listOnly('-l', '--list'),
  safeForms: [[], ['-a'], ['-vv'], ['--list', 'fix*'], ['--show-current']]
}

const TAG: ProgramSpec = {
  reads: 'none',
  flags: 'l',
  long: ['list', 'column', 'no-column', 'ignore-case', 'omit-empty'],
  longValued: ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'color', 'column'],
  unsafe: { d: 'written', s: 'written', a: 'written', f: 'written', m: 'written', delete: 'written', sign: 'written', annotate: 'written', force: 'written', edit: 'code' },
  check: listOnly('-l', '--list'),
  safeForms: [[], ['-l', 'v1*'], ['--list']]
}

const plain = (spec: Omit<ProgramSpec, 'reads'>): ProgramSpec => ({ reads: 'none', ...spec })

const COMMANDS: Record<string, ProgramSpec> = {
  status: plain({
    flags: 'sbuvz',
    long: ['short', 'branch', 'porcelain', 'long', 'ignored', 'column', 'no-column', 'ahead-behind', 'no-ahead-behind', 'renames', 'no-renames', 'verbose', 'show-stash', 'untracked-files'],
    longValued: ['porcelain', 'untracked-files', 'ignored', 'column', 'ignore-submodules', 'find-renames'],
    safeForms: [[], ['-sb'], ['--porcelain']]
  }),
  log: HISTORY,
  diff: HISTORY,
  show: HISTORY,
  whatchanged: HISTORY,
  'rev-list': HISTORY,
  shortlog: { ...HISTORY, flags: `${HISTORY.flags}se`, long: [...HISTORY.long!, 'numbered', 'summary', 'email', 'committer'], longValued: [...HISTORY.longValued!, 'group'] },
  config: CONFIG,
  'rev-parse': plain({
    flags: 'q',
    long: ['show-toplevel', 'abbrev-ref', 'short', 'verify', 'is-inside-work-tree', 'is-inside-git-dir', 'is-bare-repository', 'git-dir', 'absolute-git-dir',
      'git-common-dir', 'show-prefix', 'show-cdup', 'symbolic', 'symbolic-full-name', 'quiet', 'all', 'branches', 'tags', 'remotes', 'show-object-format',
      'sq', 'revs-only', 'no-revs', 'flags', 'no-flags', 'default', 'local-env-vars', 'show-superproject-working-tree', 'shared-index-path', 'show-ref-format'],
    longValued: ['short', 'abbrev-ref', 'git-path', 'since', 'until', 'path-format', 'show-object-format', 'branches', 'tags', 'remotes', 'glob', 'exclude', 'default', 'prefix'],
    safeForms: [['--show-toplevel'], ['--abbrev-ref', 'HEAD'], ['HEAD']]
  }),
  'ls-files': plain({
    flags: 'cdmoiskuztvfr',
    long: ['cached', 'deleted', 'modified', 'others', 'ignored', 'stage', 'unmerged', 'killed', 'directory', 'no-empty-directory', 'exclude-standard',
      'full-name', 'recurse-submodules', 'error-unmatch', 'abbrev', 'debug', 'eol', 'deduplicate', 'sparse', 'resolve-undo', 'zero'],
    valued: 'xX',
    longValued: ['exclude', 'exclude-from', 'exclude-per-directory', 'with-tree', 'abbrev', 'format'],
    roles: { X: 'read', 'exclude-from': 'read' },
    safeForms: [[], ['--others', '--exclude-standard'], ['-z']]
  }),
  'ls-tree': plain({
    flags: 'drtlz',
    long: ['name-only', 'name-status', 'object-only', 'full-name', 'full-tree', 'abbrev', 'long'],
    longValued: ['abbrev', 'format'],
    safeForms: [['HEAD'], ['-r', '--name-only', 'HEAD']]
  }),
  blame: plain({
    flags: 'bltsewpcfnMC',
    valued: 'LS',
    long: ['root', 'show-stats', 'porcelain', 'line-porcelain', 'incremental', 'show-name', 'show-number', 'show-email', 'color-lines', 'color-by-age', 'minimal', 'reverse', 'first-parent', 'no-progress', 'progress', 'abbrev'],
    longValued: ['date', 'ignore-rev', 'ignore-revs-file', 'encoding', 'contents', 'abbrev'],
    roles: { S: 'read', contents: 'read', 'ignore-revs-file': 'read' },
    safeForms: [['README.md'], ['-L', '1,5', 'README.md']]
  }),
  describe: plain({
    long: ['tags', 'all', 'long', 'always', 'dirty', 'broken', 'exact-match', 'first-parent', 'contains'],
    longValued: ['abbrev', 'candidates', 'match', 'exclude', 'dirty', 'broken'],
    safeForms: [['--tags'], ['--always', '--dirty']]
  }),
  grep: plain({
    flags: 'ivwlLncHhEFGPzoqraIW',
    valued: 'efABCm',
    long: ['cached', 'untracked', 'no-index', 'recurse-submodules', 'heading', 'break', 'count', 'name-only', 'files-with-matches', 'files-without-match',
      'line-number', 'column', 'ignore-case', 'word-regexp', 'invert-match', 'all-match', 'and', 'or', 'not', 'show-function', 'function-context',
      'extended-regexp', 'fixed-strings', 'basic-regexp', 'perl-regexp', 'full-name', 'null', 'only-matching', 'quiet', 'text', 'no-color', 'color'],
    longValued: ['max-depth', 'threads', 'context', 'after-context', 'before-context', 'max-count', 'color'],
    roles: { f: 'read' },
    unsafe: { O: 'code', 'open-files-in-pager': 'code' },
    safeForms: [['-n', 'TODO', '--', 'src'], ['-i', 'answer', '--', 'src']]
  }),
  'cat-file': plain({
    flags: 'tsep',
    long: ['batch', 'batch-check', 'batch-all-objects', 'follow-symlinks', 'unordered', 'buffer'],
    unsafe: { textconv: 'code', filters: 'code' },
    safeForms: [['-t', 'HEAD'], ['-p', 'HEAD']]
  }),
  'name-rev': plain({ long: ['tags', 'all', 'name-only', 'no-undefined', 'always', 'annotate-stdin', 'stdin'], longValued: ['refs', 'exclude'], safeForms: [['HEAD']] }),
  'merge-base': plain({ flags: 'a', long: ['all', 'octopus', 'independent', 'is-ancestor', 'fork-point'], safeForms: [['HEAD', 'HEAD~1']] }),
  'count-objects': plain({ flags: 'vH', long: ['verbose', 'human-readable'], maxOperands: 0, safeForms: [['-vH']] }),
  'check-ignore': plain({ flags: 'qvnz', long: ['quiet', 'verbose', 'non-matching', 'no-index', 'stdin'], safeForms: [['-v', 'build']] }),
  version: plain({ long: ['build-options'], maxOperands: 0, safeForms: [[]] }),
  branch: BRANCH,
  tag: TAG,
  remote: plain({ flags: 'v', long: ['verbose', 'push', 'all'], subcommands: [[], ['get-url', '*']], unsafe: { add: 'flag', 'set-url': 'flag' }, safeForms: [['-v'], ['get-url', 'origin']] }),
  stash: { ...HISTORY, subcommands: [['list'], ['show'], ['show', '*']], safeForms: [['list'], ['show', '-p']] },
  reflog: {
    ...HISTORY,
    // `git reflog`, `git reflog show REV`, `git reflog REV`; expire, delete and drop rewrite it.
    check: (args) => (['expire', 'delete', 'drop', 'exists'].includes(args.find((a) => a === null || !a.startsWith('-')) ?? '') ? 'rewrites the reflog' : null),
    safeForms: [[], ['show', 'HEAD'], ['-n', '5']]
  },
  worktree: plain({ flags: 'vz', long: ['porcelain', 'verbose'], longValued: ['expire'], subcommands: [['list']], safeForms: [['list']] })
}

export const GIT_SPEC: ProgramSpec = {
  reads: 'none',
  flags: 'P',
  valued: 'C',
  long: ['no-pager', 'no-optional-locks', 'literal-pathspecs', 'glob-pathspecs', 'noglob-pathspecs', 'icase-pathspecs', 'no-replace-objects', 'version', 'no-advice'],
  unsafe: { c: 'code', 'exec-path': 'code', 'config-env': 'code', 'git-dir': 'read', 'work-tree': 'read', p: 'code', paginate: 'code', bare: 'read' },
  commands: COMMANDS,
  safeForms: [['--version'], ['--no-pager', 'log', '--oneline', '-n', '1'], ['-C', 'src', 'status']]
}

/** git subcommands that print file contents from the repository. */
export const GIT_CONTENT_READERS = new Set(['grep', 'show', 'log', 'diff', 'cat-file', 'blame', 'whatchanged', 'archive', 'stash', 'shortlog', 'rev-list'])
