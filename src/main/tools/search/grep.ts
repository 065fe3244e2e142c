import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { badPattern, SEARCH_MESSAGES, searchPreview, searchStart, searchSubject, searchSummary, stopped } from './common'
import { FILE_TYPE_NAMES, FILE_TYPES } from './file-types'
import { pathFilter } from './matcher'
import { walkWorkspace, type WalkedFile, type WalkReport } from './walk'
import { noSink, untrusted } from '../../provenance'

const DEFAULT_LIMIT = 200
/** Larger files are skipped, as are binary ones (a NUL in the first 8 KB, ripgrep's rule). */
const MAX_FILE_BYTES = 10 * 1024 * 1024
/** Lines longer than this are shown cut: a minified bundle must not fill the model's context. */
const MAX_LINE_CHARS = 500
/** Files read at once. */
const BATCH = 32

export const grepTool = defineTool({
  name: 'grep',
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
      'result.limited': 'The first {matches} matches (the limit) in {files} files.'
    },
    'zh-CN': {
      ...SEARCH_MESSAGES['zh-CN'],
      title: '搜索文件内容',
      'result.noMatches': '在 {files} 个文件中没有匹配。',
      'result.matches': '{files} 个文件中有 {matches} 处匹配（共搜索 {searched} 个文件）。',
      'result.limited': '前 {matches} 处匹配（已达上限），分布在 {files} 个文件中。'
    }
  },
  truncationHint: 'Narrow the search with path, glob or type, or use output "files".',
  async run(args, ctx) {
    const where = searchStart(ctx.workspace, args.path)
    if ('refused' in where) return where.refused
    let regex: RegExp
    try {
      const source = args.literal ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : args.pattern
      regex = new RegExp(source, args.ignoreCase ? 'iu' : 'u')
    } catch (error) {
      return badPattern(error instanceof Error ? error.message : String(error))
    }
    const typeFilter = args.type ? pathFilter(FILE_TYPES[args.type]) : () => true
    const globFilter = pathFilter(args.glob ?? [])
    const prefix = where.display === '.' ? '' : `${where.display}/`
    const fromStart = (rel: string) => (rel.startsWith(prefix) ? rel.slice(prefix.length) : rel)
    const limit = args.limit ?? DEFAULT_LIMIT
    const mode = args.output ?? 'content'
    const context = mode === 'content' ? (args.context ?? 0) : 0
    const report: WalkReport = { linksOutside: 0 }

    const blocks: string[] = []
    let matches = 0
    let filesMatched = 0
    let searched = 0
    let batch: WalkedFile[] = []
    const flush = async () => {
      const results = await Promise.all(batch.map((file) => searchFile(file, regex, context, limit - matches)))
      batch = []
      for (const result of results) {
        if (!result || matches >= limit) continue
        searched++
        if (result.count === 0) continue
        const taken = Math.min(result.count, limit - matches)
        matches += taken
        filesMatched++
        if (mode === 'files') blocks.push(result.rel)
        else if (mode === 'count') blocks.push(`${result.rel}:${result.count}`)
        else blocks.push(result.lines.join('\n'))
      }
    }
    for await (const file of walkWorkspace({ root: where.root, start: where.start, hidden: args.hidden ?? false, signal: ctx.signal }, report)) {
      if (ctx.signal.aborted) return stopped()
      const rel = fromStart(file.rel)
      if (!typeFilter(rel) || !globFilter(rel) || file.size > MAX_FILE_BYTES) continue
      batch.push(file)
      if (batch.length >= BATCH) await flush()
      if (matches >= limit) break
    }
    if (matches < limit) await flush()
    if (ctx.signal.aborted) return stopped()

    const notes: string[] = []
    if (matches >= limit) notes.push(`[stopped at the limit of ${limit} matches; narrow the search or raise "limit"]`)
    if (report.linksOutside > 0) notes.push(`[${report.linksOutside} symbolic links leading outside the workspace were not followed]`)
    const tail = notes.length > 0 ? `\n${notes.join('\n')}` : ''
    if (matches === 0) return withDisplay(ok(`No matches (${searched} files searched).${tail}`, ''), text('result.noMatches', { files: searched }))
    const body = blocks.join(mode === 'content' && context > 0 ? '\n--\n' : '\n')
    const line =
      matches >= limit ? text('result.limited', { matches, files: filesMatched }) : text('result.matches', { matches, files: filesMatched, searched })
    return withDisplay(ok(body + tail), line)
  }
})

interface FileResult {
  rel: string
  count: number
  lines: string[]
}

/** The matches of one file as ripgrep prints them: `path:line:text`, context lines `path-line-text`. */
async function searchFile(file: WalkedFile, regex: RegExp, context: number, room: number): Promise<FileResult | null> {
  const data = await readFile(file.abs).catch(() => null)
  if (!data) return null
  if (data.subarray(0, 8_192).includes(0)) return null
  const lines = data.toString('utf8').split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  const hits: number[] = []
  for (let i = 0; i < lines.length && hits.length < room; i++) if (regex.test(lines[i]!)) hits.push(i)
  if (hits.length === 0) return { rel: file.rel, count: 0, lines: [] }
  const shown: string[] = []
  const hitSet = new Set(hits)
  let last = -1
  for (const hit of hits) {
    const from = Math.max(hit - context, last + 1)
    if (last >= 0 && from > last + 1) shown.push('--')
    for (let i = from; i <= Math.min(hit + context, lines.length - 1); i++) {
      if (i <= last) continue
      const body = lines[i]!.length > MAX_LINE_CHARS ? `${lines[i]!.slice(0, MAX_LINE_CHARS)}[…]` : lines[i]!
      shown.push(`${file.rel}${hitSet.has(i) ? ':' : '-'}${i + 1}${hitSet.has(i) ? ':' : '-'}${body}`)
      last = i
    }
  }
  return { rel: file.rel, count: hits.length, lines: shown }
}
