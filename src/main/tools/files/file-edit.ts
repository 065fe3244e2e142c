import { readFile, rename, writeFile } from 'node:fs/promises'
import { z } from 'zod'
import { confineToWorkspace } from '../../workspace'
import { defineTool, fail, ok, text } from '../define-tool'
import { PATH_LABELS, pathField } from './messages'

export const fileEditTool = defineTool({
  name: 'file_edit',
  description:
    'Replace one exact occurrence of "old" with "new" in a text file in the workspace. "old" must match the ' +
    'file exactly (whitespace included) and appear exactly once; include surrounding lines to make it unique.',
  category: 'fs',
  access: 'write',
  input: z.object({
    path: z.string().min(1).describe('Path relative to the workspace'),
    old: z.string().min(1).describe('The exact text to replace'),
    new: z.string().describe('The replacement text')
  }),
  subjectKind: 'path',
  subject: (args) => ({ value: args.path, arg: 'path' }),
  summary: (args) => args.path,
  preview: (args, { workspace }) => ({
    title: text('title'),
    fields: [
      pathField(workspace, args.path),
      { label: text('old'), value: args.old, code: true },
      { label: text('new'), value: args.new, code: true }
    ]
  }),
  messages: {
    en: { ...PATH_LABELS.en, title: 'Edit a file', old: 'Replace', new: 'With' },
    'zh-CN': { ...PATH_LABELS['zh-CN'], title: '编辑文件', old: '替换', new: '替换为' }
  },
  async run(args, ctx) {
    const target = confineToWorkspace(ctx.workspace, args.path)
    const original = await readFile(target.absolute, 'utf8').catch(() => null)
    if (original === null) return fail(`File not found: ${target.display}`)
    const first = original.indexOf(args.old)
    if (first === -1) return fail(`"old" was not found in ${target.display}. Read the file and copy the text exactly.`)
    if (original.indexOf(args.old, first + 1) !== -1) {
      return fail(`"old" appears more than once in ${target.display}; include more surrounding text to make it unique.`)
    }
    const updated = original.slice(0, first) + args.new + original.slice(first + args.old.length)
    const temporary = `${target.absolute}.deskclaw-${process.pid}-${Date.now()}.tmp`
    await writeFile(temporary, updated, 'utf8')
    await rename(temporary, target.absolute)
    const line = original.slice(0, first).split('\n').length
    return ok(`Edited ${target.display} at line ${line}.`)
  }
})
