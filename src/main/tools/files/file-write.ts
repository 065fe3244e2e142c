import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { confineToWorkspace } from '../../workspace'
import { defineTool, ok, text, withDisplay } from '../define-tool'
import { FILE_RESULTS, PATH_LABELS, pathField } from './messages'

export const fileWriteTool = defineTool({
  name: 'file_write',
  description:
    'Create or overwrite a text file in the workspace with the given content. Parent folders are created. ' +
    'To change part of an existing file, prefer file_edit.',
  category: 'fs',
  access: 'write',
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
    const target = confineToWorkspace(ctx.workspace, args.path)
    await mkdir(dirname(target.absolute), { recursive: true })
    // Write then rename, so a crash never leaves a half-written file behind.
    const temporary = `${target.absolute}.deskclaw-${process.pid}-${Date.now()}.tmp`
    await writeFile(temporary, args.content, 'utf8')
    await rename(temporary, target.absolute)
    const bytes = Buffer.byteLength(args.content, 'utf8')
    return withDisplay(ok(`Wrote ${bytes} bytes to ${target.display}.`), text('result.wrote', { bytes, path: target.display }))
  }
})
