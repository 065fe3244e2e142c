import { realpath, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInsideFolder, isRefusal, type WorkspaceReader } from '../../workspace'

/** One file the walk found: its path relative to the workspace (forward slashes) and its real path. */
export interface WalkedFile {
  rel: string
  abs: string
  mtimeMs: number
  size: number
  /** Hard links to it: more than one, and its other name may be outside (grep refuses to read it). */
  nlink: number
}

export interface WalkOptions {
  /** Canonical real path of the workspace: nothing outside it is ever listed or opened. */
  root: string
  /** Canonical real path of the folder (or file) to walk, inside `root`. */
  start: string
  /** Also files and folders whose name starts with "." (ripgrep's --hidden); `.git` is never walked. */
  hidden: boolean
  signal: AbortSignal
  /** Folders are listed, and ignore files read, through the workspace's held descriptor (race-free). */
  reader: WorkspaceReader
}

/** What the walk left out, so the tool can say so instead of silently returning less. */
export interface WalkReport {
  linksOutside: number
  /** FIFOs, sockets and devices: never opened, never listed. */
  special?: number
}

/** The ignore files ripgrep reads in every folder (docs/tools.md, "grep and glob"). */
const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore']

interface Rules {
  /** Folder the rules are relative to, relative to the workspace ('' for the root). */
  base: string
  rules: Ignore
}

/**
 * Every file under `start`, in a stable order (names sorted per folder), as ripgrep picks them:
 * .gitignore / .ignore / .rgignore of each folder and .git/info/exclude respected, hidden names
 * skipped unless asked. A symbolic link to a file is followed only when its real path is inside the
 * workspace (a link out is counted and skipped); a link to a folder inside is left to the folder's
 * real place. The walk can never leave the workspace, whatever the links say.
 */
export async function* walkWorkspace(options: WalkOptions, report: WalkReport): AsyncGenerator<WalkedFile> {
  const { root } = options
  const startStat = await stat(options.start)
  if (!startStat.isDirectory()) {
    yield { rel: toRel(root, options.start), abs: options.start, mtimeMs: startStat.mtimeMs, size: startStat.size, nlink: startStat.nlink }
    return
  }
  const rootRules = await rulesOf(options.reader, '', ['.git/info/exclude'])
  // The rules of the folders above the start apply too (a search in src/ still skips what the root ignores).
  const inherited: Rules[] = rootRules ? [rootRules] : []
  const above = toRel(root, options.start)
  const parts = above === '' ? [] : above.split('/')
  for (let i = 1; i < parts.length; i++) {
    const folderRel = parts.slice(0, i).join('/')
    const rules = await rulesOf(options.reader, folderRel)
    if (rules) inherited.push(rules)
  }
  yield* walkFolder(options, report, options.start, above, inherited)
}

async function* walkFolder(
  options: WalkOptions,
  report: WalkReport,
  folder: string,
  folderRel: string,
  inherited: Rules[]
): AsyncGenerator<WalkedFile> {
  if (options.signal.aborted) return
  const own = await rulesOf(options.reader, folderRel)
  const rules = own ? [...inherited, own] : inherited
  // Listed through the folder the reader opened from the workspace's descriptor: a folder swapped for a link out lists nothing.
  const listed = await options.reader.list(folderRel === '' ? '.' : folderRel)
  if (isRefusal(listed)) return // unreadable or swapped folder: skipped, as ripgrep skips an unreadable one
  const entries = listed.entries
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    if (options.signal.aborted) return
    const name = entry.name
    if (name === '.git') continue
    if (!options.hidden && name.startsWith('.')) continue
    const rel = folderRel === '' ? name : `${folderRel}/${name}`
    let abs = join(folder, name)
    const isDir = entry.isDirectory()
    let isFile = entry.isFile()
    if (entry.isSymbolicLink()) {
      let target: string
      try {
        target = await realpath(abs)
      } catch {
        continue // dangling link
      }
      if (!isInsideFolder(options.root, target)) {
        report.linksOutside++
        continue
      }
      const targetStat = await stat(target).catch(() => null)
      // A link to a folder inside is not walked: that folder is searched at its real place (no duplicates, no loops).
      if (!targetStat?.isFile()) continue
      abs = target
      isFile = true
    }
    if (isIgnored(rules, rel, isDir)) continue
    if (isDir) {
      yield* walkFolder(options, report, abs, rel, rules)
    } else if (isFile) {
      const stats = await stat(abs).catch(() => null)
      if (stats?.isFile()) yield { rel, abs, mtimeMs: stats.mtimeMs, size: stats.size, nlink: stats.nlink }
    } else if (!entry.isSymbolicLink()) {
      report.special = (report.special ?? 0) + 1
    }
  }
}

function isIgnored(rules: Rules[], rel: string, isDir: boolean): boolean {
  for (const { base, rules: set } of rules) {
    const inBase = base === '' ? rel : rel.startsWith(`${base}/`) ? rel.slice(base.length + 1) : null
    if (inBase === null) continue
    if (set.ignores(isDir ? `${inBase}/` : inBase)) return true
  }
  return false
}

/** Ignore files are small; a larger one is not an ignore file anyone wrote by hand. */
const MAX_IGNORE_BYTES = 1024 * 1024

async function rulesOf(reader: WorkspaceReader, folderRel: string, extra: string[] = []): Promise<Rules | null> {
  let found = false
  const rules = ignore()
  for (const name of [...extra, ...IGNORE_FILES]) {
    const read = await reader.read(folderRel === '' ? name : `${folderRel}/${name}`, { maxBytes: MAX_IGNORE_BYTES })
    if (!isRefusal(read)) {
      rules.add(read.data.toString('utf8'))
      found = true
    }
  }
  return found ? { base: folderRel, rules } : null
}

/** `abs` relative to the workspace root with forward slashes ('' for the root itself). */
export function toRel(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/')
}
