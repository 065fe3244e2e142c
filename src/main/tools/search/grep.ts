import { stat } from 'node:fs/promises'
import { z } from 'zod'
import type { WorkspaceReader } from '../../workspace'
import { defineTool, fail, ok, text, withDisplay, type ToolOutput } from '../define-tool'
import { badPattern, openReader, SEARCH_MESSAGES, searchPreview, searchStart, searchSubject, searchSummary, stopped } from './common'
import { FILE_TYPE_NAMES, FILE_TYPES } from './file-types'
import { MAX_SEARCHED_BYTES, readForSearch, SkipReport } from './file-gate'
import { pathFilter } from './matcher'
import { PatternWorker, type FileToSearch } from './pattern-worker'
import { walkWorkspace, type WalkedFile, type WalkReport } from './walk'
import { noSink, untrusted } from '../../provenance'

const DEFAULT_LIMIT = 200
/** Lines longer than this are shown cut: a minified bundle must not fill the model's context. */
const MAX_LINE_CHARS = 500
/** Files read at once. */
const BATCH = 32
/** How long one search may match before it is ended (docs/tools.md, "grep and glob"). */
export const GREP_TIME_LIMIT_MS = 30_000

export interface GrepOptions {
  /** The time limit of one search's matching (default GREP_TIME_LIMIT_MS). */
  timeLimitMs?: number
}

export const grepTool = createGrepTool()

export function createGrepTool(options: GrepOptions = {}) {
  const timeLimitMs = options.timeLimitMs ?? GREP_TIME_LIMIT_MS
  return defineTool({
  name: 'grep',
  repeat: 'same-answer',
  description:
    'Search file contents in the workspace with a regular expression (JavaScript syntax), like ripgrep: .gitignore is respected, ' +
    'hidden files and binary files are skipped. Filter by "glob" (e.g. "*.ts", "src/**/*.py", "!*.min.js") or "type" (ts, js, py, rust, go, …). ' +
    'Output: "content" (default: path:line:text, with "context" lines around), "files" (paths only) or "count" (matches per file). ' +
    `At most "limit" matches (default ${DEFAULT_LIMIT}).`,
  shortDescription: 'Search workspace file contents by regex "pattern" (ripgrep-like, .gitignore respected), filtered by "glob" or "type"; "output" is content, files or count.',
  category: 'fs',
  access: 'read',
  source: untrusted('workspace_file'),
  sink: noSink,
  input: z.object({
    pattern: z.string().min(1).max(1_000).describe('Regular expression (or the exact text with literal: true)'),
    path: z.string().optional().describe('File or folder relative to the workspace (default: the whole workspace)'),
    glob: z.array(z.string().min(1)).max(20).optional().describe('Only files matching these globs; "!glob" excludes'),
    type: z.enum(FILE_TYPE_NAMES).optional().describe('Only files of this type'),
    ignoreCase: z.boolean().optional(),
    literal: z.boolean().optional().describe('The pattern is plain text, not a regular expression'),
    context: z.number().int().min(0).max(20).optional().describe('Lines shown before and after each match'),
    output: z.enum(['content', 'files', 'count']).optional(),
    hidden: z.boolean().optional().describe('Also search hidden files and folders (names starting with ".")'),
    limit: z.number().int().min(1).max(5_000).optional()
  }),
  subjectKind: 'path',
  subject: searchSubject,
  summary: searchSummary,
  preview: searchPreview,
  messages: {
    en: {
      ...SEARCH_MESSAGES.en,
      title: 'Search file contents',
      'result.noMatches': 'No matches in {files} files.',
      'result.matches': '{matches} matches in {files} files ({searched} searched).',
      'result.limited': 'The first {matches} matches (the limit) in {files} files.',
      'result.timeLimit': 'The search took longer than {seconds} s and was ended; {matches} matches so far. The pattern may backtrack too much.',
      'result.failed': 'The search failed: {error}.'
    },
    'zh-CN': {
      ...SEARCH_MESSAGES['zh-CN'],
      title: '搜索文件内容',
      'result.noMatches': '在 {files} 个文件中没有匹配。',
      'result.matches': '{files} 个文件中有 {matches} 处匹配（共搜索 {searched} 个文件）。',
      'result.limited': '前 {matches} 处匹配（已达上限），分布在 {files} 个文件中。',
      'result.timeLimit': '搜索超过 {seconds} 秒，已被结束；目前有 {matches} 处匹配。该模式可能回溯过多。',
      'result.failed': '搜索失败：{error}。'
    }
  },
  truncationHint: 'Narrow the search with path, glob or type, or use output "files".',
  async run(args, ctx) {
    const where = searchStart(ctx.workspace, args.path)
    if ('refused' in where) return where.refused
    const source = args.literal ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : args.pattern
    const flags = args.ignoreCase ? 'iu' : 'u'
    try {
      // Compiled here only to report a bad pattern; it is run in the worker, never on this thread.
      new RegExp(source, flags)
    } catch (error) {
      return badPattern(error instanceof Error ? error.message : String(error))
    }
    const reader = await openReader(ctx.workspace)
    if ('refused' in reader) return reader.refused
    const mode = args.output ?? 'content'
    const context = mode === 'content' ? (args.context ?? 0) : 0
    const worker = new PatternWorker({ source, flags, context, maxLineChars: MAX_LINE_CHARS, timeLimitMs, signal: ctx.signal })
    try {
      return await search(args, ctx.signal, { where, reader, worker, mode, context, timeLimitMs })
    } finally {
      await worker.close()
      await reader.close()
    }
  }
  })
}

type GrepArgs = {
  glob?: string[]
  type?: keyof typeof FILE_TYPES
  hidden?: boolean
  limit?: number
}

interface SearchParts {
  where: { root: string; start: string; display: string }
  reader: WorkspaceReader
  worker: PatternWorker
  mode: 'content' | 'files' | 'count'
  context: number
  timeLimitMs: number
}

/** Walks, reads through the gate, matches in the worker, and words the result. */
async function search(args: GrepArgs, signal: AbortSignal, parts: SearchParts): Promise<ToolOutput> {
  const { where, reader, worker, mode, context } = parts
  const typeFilter = args.type ? pathFilter(FILE_TYPES[args.type]) : () => true
  const globFilter = pathFilter(args.glob ?? [])
  const prefix = where.display === '.' ? '' : `${where.display}/`
  const fromStart = (rel: string) => (rel.startsWith(prefix) ? rel.slice(prefix.length) : rel)
  const limit = args.limit ?? DEFAULT_LIMIT
  const report: WalkReport = { linksOutside: 0 }
  const skipped = new SkipReport()
  const explicit = where.start !== where.root && !(await isFolder(where.start))

  const blocks: string[] = []
  let matches = 0
  let filesMatched = 0
  let searched = 0
  let batch: WalkedFile[] = []
  const flush = async (): Promise<boolean> => {
    const texts = await Promise.all(batch.map((file) => readForSearch(reader, file, { explicit, signal }, skipped)))
    const files: FileToSearch[] = []
    batch.forEach((file, i) => {
      const text = texts[i]
      if (text !== null && text !== undefined) files.push({ rel: file.rel, text, room: limit - matches })
    })
    batch = []
    if (files.length === 0) return true
    const outcome = await worker.search(files)
    if (!outcome.ok) return false
    for (const result of outcome.results) {
      if (matches >= limit) continue
      searched++
      if (result.count === 0) continue
      const taken = Math.min(result.count, limit - matches)
      matches += taken
      filesMatched++
      if (mode === 'files') blocks.push(result.rel)
      else if (mode === 'count') blocks.push(`${result.rel}:${result.count}`)
      else blocks.push(result.lines.join('\n'))
    }
    return true
  }
  let going = true
  for await (const file of walkWorkspace({ root: where.root, start: where.start, hidden: args.hidden ?? false, signal, reader }, report)) {
    if (signal.aborted) return stopped()
    const rel = fromStart(file.rel)
    if (!typeFilter(rel) || !globFilter(rel) || file.size > MAX_SEARCHED_BYTES) continue
    batch.push(file)
    if (batch.length >= BATCH) going = await flush()
    if (!going || matches >= limit) break
  }
  if (going && matches < limit) going = await flush()
  if (signal.aborted) return stopped()
  const ended = worker.stoppedBecause
  if (!going && ended && !ended.ok) {
    if (ended.why === 'stopped') return stopped()
    if (ended.why === 'timeout') {
      const seconds = Math.round(parts.timeLimitMs / 100) / 10
      return withDisplay(
        fail(`The search was ended after ${seconds} s (the time limit) with ${matches} matches so far: the pattern may backtrack too much on long lines. Simplify it (avoid nested quantifiers such as (a+)+) or narrow the path.`),
        text('result.timeLimit', { seconds, matches })
      )
    }
    return withDisplay(fail(`The search failed: ${ended.detail ?? 'unknown error'}`), text('result.failed', { error: ended.detail ?? '' }))
  }

  const notes: string[] = []
  if (matches >= limit) notes.push(`[stopped at the limit of ${limit} matches; narrow the search or raise "limit"]`)
  if (report.linksOutside > 0) notes.push(`[${report.linksOutside} symbolic links leading outside the workspace were not followed]`)
  notes.push(...skipped.notes())
  if ((report.special ?? 0) > 0) notes.push(`[${report.special} pipes, sockets or devices were not opened]`)
  const tail = notes.length > 0 ? `\n${notes.join('\n')}` : ''
  if (matches === 0) return withDisplay(ok(`No matches (${searched} files searched).${tail}`, ''), text('result.noMatches', { files: searched }))
  const body = blocks.join(mode === 'content' && context > 0 ? '\n--\n' : '\n')
  const line =
    matches >= limit ? text('result.limited', { matches, files: filesMatched }) : text('result.matches', { matches, files: filesMatched, searched })
  return withDisplay(ok(body + tail), line)
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false
}
