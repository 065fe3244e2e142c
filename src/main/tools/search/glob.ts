import { z } from 'zod'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { badPattern, globLeavesWorkspace, openReader, SEARCH_MESSAGES, searchPreview, searchStart, searchSubject, searchSummary, stopped } from './common'
import { pathFilter } from './matcher'
import { walkWorkspace, type WalkedFile, type WalkReport } from './walk'
import { noSink, untrusted } from '../../provenance'

const DEFAULT_LIMIT = 200

export const globTool = defineTool({
  name: 'glob',
  repeat: 'same-answer',
  description:
    'Find files in the workspace by name pattern ("**/*.ts", "src/**/test_*.py", "*.md"), most recently modified first. ' +
    'A pattern without "/" matches file names in any folder. .gitignore is respected and hidden files are skipped unless "hidden" is true. ' +
    `At most "limit" paths (default ${DEFAULT_LIMIT}).`,
  shortDescription: 'Find workspace files by name "pattern" ("**/*.ts"; no "/" matches in any folder), newest first, .gitignore respected.',
  category: 'fs',
  access: 'read',
  source: untrusted('workspace_file'),
  sink: noSink,
  input: z.object({
    pattern: z.string().min(1).max(500).describe('Glob pattern, relative to "path"'),
    path: z.string().optional().describe('Folder relative to the workspace (default: the whole workspace)'),
    hidden: z.boolean().optional().describe('Also match hidden files and folders (names starting with ".")'),
    limit: z.number().int().min(1).max(5_000).optional()
  }),
  subjectKind: 'path',
  subject: searchSubject,
  summary: searchSummary,
  preview: searchPreview,
  messages: {
    en: {
      ...SEARCH_MESSAGES.en,
      title: 'Find files',
      'result.patternOutside': 'The pattern {pattern} points outside the workspace.',
      'result.noFiles': 'No files match {pattern}.',
      'result.found': '{count} files match {pattern}.',
      'result.limited': 'The {shown} most recent of {count} files matching {pattern}.'
    },
    'zh-CN': {
      ...SEARCH_MESSAGES['zh-CN'],
      title: '查找文件',
      'result.patternOutside': '模式 {pattern} 指向工作区之外。',
      'result.noFiles': '没有文件匹配 {pattern}。',
      'result.found': '有 {count} 个文件匹配 {pattern}。',
      'result.limited': '匹配 {pattern} 的 {count} 个文件中最近修改的 {shown} 个。'
    }
  },
  truncationHint: 'Narrow the pattern or the path.',
  async run(args, ctx) {
    const pattern = args.pattern
    if (globLeavesWorkspace(pattern)) {
      return withDisplay(
        { forLlm: `The pattern "${pattern}" points outside the workspace; patterns are relative to the workspace (use "path" for a sub-folder).`, isError: true },
        text('result.patternOutside', { pattern })
      )
    }
    const where = searchStart(ctx.workspace, args.path)
    if ('refused' in where) return where.refused
    let matches: (rel: string) => boolean
    try {
      matches = pathFilter([pattern])
    } catch (error) {
      return badPattern(error instanceof Error ? error.message : String(error))
    }
    const prefix = where.display === '.' ? '' : `${where.display}/`
    const report: WalkReport = { linksOutside: 0 }
    const found: WalkedFile[] = []
    const reader = await openReader(ctx.workspace)
    if ('refused' in reader) return reader.refused
    try {
      // Names only: glob opens no file, so a secret's name is listed as file_list lists it (docs/tools.md, "grep and glob").
      for await (const file of walkWorkspace({ root: where.root, start: where.start, hidden: args.hidden ?? false, signal: ctx.signal, reader }, report)) {
        const rel = file.rel.startsWith(prefix) ? file.rel.slice(prefix.length) : file.rel
        if (matches(rel)) found.push(file)
      }
    } finally {
      await reader.close()
    }
    if (ctx.signal.aborted) return stopped()
    // Most recent first (what was just worked on is what the model most likely wants), then by path.
    found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : 1))
    const limit = args.limit ?? DEFAULT_LIMIT
    const shown = found.slice(0, limit).map((file) => file.rel)
    const notes: string[] = []
    if (found.length > limit) notes.push(`[${found.length - limit} more files not shown; narrow the pattern]`)
    if (report.linksOutside > 0) notes.push(`[${report.linksOutside} symbolic links leading outside the workspace were not followed]`)
    const tail = notes.length > 0 ? `\n${notes.join('\n')}` : ''
    if (found.length === 0) return withDisplay(ok(`No files match ${pattern}.${tail}`, ''), text('result.noFiles', { pattern }))
    const line =
      found.length > limit ? text('result.limited', { shown: limit, count: found.length, pattern }) : text('result.found', { count: found.length, pattern })
    return withDisplay(ok(shown.join('\n') + tail), line)
  }
})
