import { z } from 'zod'
import { findSecretValues, redactSecretSpans, SECRET_SCAN_BYTES } from '../../secrets'
import { isRefusal, readWorkspaceFile } from '../../workspace'
import { defineTool, fail, ok, text, withDisplay } from '../define-tool'
import { FILE_RESULTS, PATH_LABELS, pathField, refusalOutput } from './messages'
import { noSink, untrusted } from '../../provenance'

const DEFAULT_LIMIT = 2_000
/** Larger files are read in pages; binary files are refused rather than dumped. */
const MAX_FILE_BYTES = 20 * 1024 * 1024

export const fileReadTool = defineTool({
  name: 'file_read',
  repeat: 'same-answer',
  description:
    'Read a text file in the workspace. Returns numbered lines. For long files pass "offset" (first line, 1-based) ' +
    `and "limit" (number of lines, default ${DEFAULT_LIMIT}) to read a part.`,
  shortDescription: 'Read a workspace text file as numbered lines; "offset" is the first line (1-based), "limit" the number of lines (default 2000).',
  category: 'fs',
  access: 'read',
  source: untrusted('workspace_file'),
  sink: noSink,
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace'),
    offset: z.number().int().min(1).optional().describe('First line to read, 1-based'),
    limit: z.number().int().min(1).max(10_000).optional().describe('How many lines to read')
  }),
  subjectKind: 'path',
  subject: (args) => ({ value: args.path, arg: 'path' }),
  summary: (args) => args.path,
  preview: (args, { workspace }) => ({
    title: text('title'),
    fields: [pathField(workspace, args.path)]
  }),
  messages: {
    en: {
      ...PATH_LABELS.en,
      ...FILE_RESULTS.en,
      title: 'Read a file',
      'result.binary': '{path} looks like a binary file; it was not read.',
      'result.pastEnd': '{path} has {lines} lines; line {offset} is past the end.',
      'result.empty': '{path} is empty.',
      'result.read': 'Read lines {from}–{to} of {total} from {path}.'
    },
    'zh-CN': {
      ...PATH_LABELS['zh-CN'],
      ...FILE_RESULTS['zh-CN'],
      title: '读取文件',
      'result.binary': '{path} 似乎是二进制文件，未读取。',
      'result.pastEnd': '{path} 共 {lines} 行，第 {offset} 行已超出末尾。',
      'result.empty': '{path} 是空文件。',
      'result.read': '已读取 {path} 的第 {from}–{to} 行（共 {total} 行）。'
    }
  },
  truncationHint: 'Read the rest with file_read and a larger offset.',
  async run(args, ctx) {
    // Opened race-free and read through the descriptor: a link, FIFO or hard link swapped in is refused (docs/risk.md).
    const read = await readWorkspaceFile(ctx.workspace, args.path, { maxBytes: MAX_FILE_BYTES, signal: ctx.signal })
    if (isRefusal(read)) return refusalOutput(read, args.path)
    const { display: path, data: buffer } = read
    if (buffer.subarray(0, 8_000).includes(0)) return withDisplay(fail(`${path} looks like a binary file; not read.`), text('result.binary', { path }))
    const lines = unjudgedSecretsRedacted(buffer, path).split('\n')
    if (lines.at(-1) === '') lines.pop()
    const offset = args.offset ?? 1
    const limit = args.limit ?? DEFAULT_LIMIT
    if (lines.length > 0 && offset > lines.length) {
      return withDisplay(fail(`${path} has ${lines.length} lines; offset ${offset} is past the end.`), text('result.pastEnd', { path, lines: lines.length, offset }))
    }
    const page = lines.slice(offset - 1, offset - 1 + limit)
    const width = String(offset + page.length).length
    const numbered = page.map((line, i) => `${String(offset + i).padStart(width)}\t${line}`).join('\n')
    const last = offset + page.length - 1
    const more =
      last < lines.length ? `\n[lines ${offset}-${last} of ${lines.length}; read on with offset ${last + 1}]` : ''
    if (lines.length === 0) return withDisplay(ok(`(${path} is empty)`, ''), text('result.empty', { path }))
    return withDisplay(ok(numbered + more), text('result.read', { path, from: offset, to: last, total: lines.length }))
  }
})

/**
 * The file's text, with secret values past what the judgement looked at replaced (docs/risk.md,
 * "Secrets"): the path guardian reads the first SECRET_SCAN_BYTES of a file before the call and
 * asks when they hold a credential; a token further down a large file was never shown to anyone.
 */
function unjudgedSecretsRedacted(buffer: Buffer, path: string): string {
  const text = buffer.toString('utf8')
  if (buffer.length <= SECRET_SCAN_BYTES) return text
  const judged = buffer.subarray(0, SECRET_SCAN_BYTES).toString('utf8').length
  const spans = findSecretValues(text, { path }).filter((span) => span.end > judged)
  return spans.length > 0 ? redactSecretSpans(text, spans) : text
}
