/**
 * Files a program reaches without naming them (docs/risk.md, items 7 and 8): `find` and what its
 * `-exec` runs on each match, a recursive search (`grep -r`, `rg` by its real defaults), names fed
 * by xargs. Secret-shaped files among them ask, as if named; folders outside the workspace ask.
 */
import { displayPath, isInside, isPublicRead, normalise, resolveReal, secretUnder } from '../paths'
import type { AddFinding, Invocation } from './analysis'
import { basenameOf } from './critical'
import type { PathJudging } from './path-checks'
import { SHELLS } from './programs'
import { findScopeOf } from './scope'
import type { Word } from './words'

/** Programs that search inside files, recursively when told to. */
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'rgrep', 'rg', 'ag', 'ack'])

/**
 * find's own writes (`-delete`, `-fprint`), and the command of each `-exec`, judged by `judge`
 * with the find's scope set (where it looks, which names it keeps).
 */
export function classifyFind(a: PathJudging, inv: Invocation, argv: Word[], unitAdd: AddFinding, judge: (inner: Invocation) => void): void {
  const { scope } = a
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!.value
    if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
      let end = i + 1
      while (end < argv.length && argv[end]!.value !== ';' && argv[end]!.value !== '+') end++
      const inner = argv.slice(i + 1, end)
      if (inner.length > 0) {
        const innerProgram = basenameOf(inner[0]!.value ?? '')
        if (SHELLS.has(innerProgram) && inner.some((w) => w.value !== null && w.value.includes('{}') && w.value !== '{}')) {
          unitAdd('shell.dynamic-script', `find puts each file name into the text of the ${innerProgram} script: a name can be code.`, 'ask', inner[0]!)
        }
        const previous = scope.findScope
        scope.findScope = findScopeOf(scope, argv)
        try {
          judge({ ...inv, words: inner, assignments: [], redirects: [], programs: [] })
        } finally {
          scope.findScope = previous
        }
      }
      i = end
    } else if (v === '-delete') unitAdd('shell.writes', 'find -delete deletes every match.', 'ask', argv[i]!)
    else if (v !== null && /^-(fprint0?|fprintf|fls)$/.test(v)) unitAdd('shell.writes', `find ${v} writes a file.`, 'ask', argv[i]!)
  }
}

/**
 * Files a content reader gets without naming them: a recursive search (`grep -r`, `rg`), the
 * `{}` of `find -exec`, or names from `xargs`' input. Secret-shaped files among them ask, as if
 * named (docs/risk.md, "Reads outside the workspace").
 */
export function checkSearchedFiles(a: PathJudging, program: string, argv: Word[], inv: Invocation, underXargs: boolean, add: AddFinding): void {
  const { scope } = a
  const { ctx } = scope
  const values = argv.slice(1).map((w) => w.value)
  const head = argv[0]!
  const ask = (where: string, how: string) => add('path.sensitive', `${how} reaches ${where}, which usually holds secrets.`, 'ask', head)
  if (values.some((v) => v === '--version' || v === '-V' || v === '--help' || v === '--files' || v === '--type-list')) return
  if (scope.findScope && values.includes('{}')) {
    for (const root of scope.findScope.roots) {
      if (!isInside(root, ctx.workspace) && !isPublicRead(root)) {
        return add('path.outside-read', `${program} reads what find matches under ${displayPath(root, ctx)}, outside the workspace.`, 'ask', head)
      }
      const hit = secretUnder(root, ctx, { hidden: true, name: scope.findScope.name })
      if (hit) return ask(hit, `${program} on what find matches`)
    }
    return
  }
  if (underXargs) {
    const upstream = inv.pipedFrom.at(-1)
    const found = upstream && upstream.words[0]?.value === 'find' ? findScopeOf(scope, upstream.words) : null
    if (!found) return add('shell.xargs', `${program} reads files whose names come from xargs' input, which nobody has seen.`, 'ask', head)
    for (const root of found.roots) {
      const hit = secretUnder(root, ctx, { hidden: true, name: found.name })
      if (hit) return ask(hit, `${program} on what find matches`)
    }
    return
  }
  if (!SEARCHERS.has(program)) return
  checkRecursiveSearch(a, program, values, add, head, ask)
}

/** A searcher told to recurse (`grep -r`, `rg`): every folder it walks, from every folder the command may be in. */
function checkRecursiveSearch(a: PathJudging, program: string, values: Array<string | null>, add: AddFinding, head: Word, ask: (where: string, how: string) => void): void {
  const { scope } = a
  const { ctx } = scope
  const recursive =
    program === 'rg' ||
    program === 'rgrep' ||
    values.some((v) => v !== null && (/^-[a-zA-Z]*[rR]/.test(v) && !v.startsWith('--') || v === '--recursive' || v === '--dereference-recursive' || v === '-d' || v === '--directories=recurse'))
  if (!recursive) return
  // rg's real defaults (docs/risk.md, item 8): no hidden files and no symlinks unless told to.
  const follow = program !== 'rg' || values.some((v) => v === '-L' || v === '--follow' || (v !== null && /^-[a-zA-Z]*L/.test(v) && !v.startsWith('--')))
  const hidden = program !== 'rg' || values.some((v) => v === '--hidden' || v === '-.' || v === '-uu' || v === '-uuu' || (v !== null && /^-u{2,}/.test(v)))
  // The pattern is the first operand; the rest are where to search (the working folder when none).
  const operands = values.filter((v): v is string => v !== null && !v.startsWith('-'))
  const roots = (values.some((v) => v === '-e' || v === '-f' || v === '--files') ? operands : operands.slice(1))
  const folders = roots.length > 0 ? roots : ['.']
  // Each distinct folder once: a walk reads the disk.
  for (const cwd of new Set(scope.cwds)) {
    for (const root of folders) {
      const absolute = resolveReal(normalise(root, ctx, cwd))
      if (!isInside(absolute, ctx.workspace)) {
        if (!isPublicRead(absolute)) return add('path.outside-read', `${program} searches ${displayPath(absolute, ctx)}, outside the workspace.`, 'ask', head)
        continue
      }
      const hit = secretUnder(absolute, ctx, { hidden, follow })
      if (hit) return ask(hit, `Searching ${displayPath(absolute, ctx)}`)
    }
  }
}
