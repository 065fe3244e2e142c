import { z } from 'zod'
import { isRefusal, writeWorkspaceFile } from '../../workspace'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { FILE_RESULTS, PATH_LABELS, pathField, refusalOutput } from './messages'
import { fileWriteSink, trusted } from '../../provenance'

export const fileWriteTool = defineTool({
  name: 'file_write',
  repeat: 'same-answer',
  description:
    'Create or overwrite a text file in the workspace with the given content. Parent folders are created. ' +
    'To change part of an existing file, prefer file_edit.',
  shortDescription: 'Create or overwrite the workspace file "path" with "content" (parent folders are created); prefer file_edit to change part of a file.',
  category: 'fs',
  access: 'write',
  source: trusted,
  sink: { may: ['persist'], of: (args) => fileWriteSink(args.path) },
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace'),
    content: z.string().describe('The complete new content of the file')
  }),
  subjectKind: 'path',
  subject: (args) => ({ value: args.path, arg: 'path' }),
  summary: (args) => args.path,
  preview: (args, { workspace }) => ({
    title: text('title'),
    fields: [
      pathField(workspace, args.path),
      { label: text('content'), value: args.content, code: true }
    ]
  }),
  messages: {
    en: { ...PATH_LABELS.en, ...FILE_RESULTS.en, title: 'Write a file', content: 'Content', 'result.wrote': 'Wrote {bytes} bytes to {path}.' },
    'zh-CN': { ...PATH_LABELS['zh-CN'], ...FILE_RESULTS['zh-CN'], title: '写入文件', content: '内容', 'result.wrote': '已写入 {bytes} 字节到 {path}。' }
  },
  async run(args, ctx) {
    // Written to a temp file in the held parent folder and renamed there; removed again on any failure (docs/risk.md).
    const wrote = await writeWorkspaceFile(ctx.workspace, args.path, args.content)
    if (isRefusal(wrote)) return refusalOutput(wrote, args.path)
    const { bytes, display: path } = wrote
    // The display line is the whole result for a person: nothing to repeat under it (issue 22, item 8).
    return withDisplay(ok(`Wrote ${bytes} bytes to ${path}.`, ''), text('result.wrote', { bytes, path }))
  }
})
