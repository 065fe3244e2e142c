import { basename } from 'node:path'
import { z } from 'zod'
import { describeTarget, locate, natureOf, TargetSchema } from '../../browser'
import { confineToWorkspace, readWorkspaceFile } from '../../workspace'
import { defineTool, fail, text, withDisplay } from '../define-tool'
import { attempt, BROWSER_MESSAGES, confirmed, denied, guardFor, pageState, type BrowserToolServices } from './common'
import { untrusted } from '../../provenance'

/** The largest file handed to a page (a page's upload field is not a way to move big data). */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024

export function createBrowserUploadTool(services: BrowserToolServices) {
  return defineTool({
    name: 'browser_upload',
    repeat: 'may-differ',
    description:
      'Put a file of the workspace into a file field of the current page (an <input type="file">, by label or ref). ' +
      'It asks the person first; sending the form afterwards asks again.',
    shortDescription: 'Put the workspace file "path" into the file field "target" of the current page; asks first.',
    category: 'browser',
    access: 'execute',
    source: untrusted('browser_page'),
    sink: { may: ['send'], of: (args) => ({ kind: 'send', via: 'form', destination: args.path }) },
    input: z.object({
      target: TargetSchema.describe('The file field: { "label": "Attachment" }, { "ref": "e14" }'),
      path: z.string().min(1).max(4096).describe('The file, relative to the workspace')
    }),
    // The file is judged by the path guardian (outside the workspace: refused; secrets: asked).
    subjectKind: 'path',
    subject: (args) => ({ value: args.path, arg: 'path' }),
    confirmsDuringRun: true,
    summary: (args) => `${args.path} → ${describeTarget(args.target)}`,
    preview: (args, { workspace }) => ({
      title: text('title'),
      fields: [
        { label: text('file'), value: confineToWorkspace(workspace, args.path).display, code: true, arg: 'path' },
        { label: text('element'), value: describeTarget(args.target) }
      ]
    }),
    messages: {
      en: {
        ...BROWSER_MESSAGES.en,
        title: 'Upload a file in the browser',
        uploadNote: 'The page can send this file to its site.',
        'result.notFound': 'The file field was not found or is not unique: {target}',
        'result.notFileField': 'That element is not a file field.',
        'result.unreadable': 'The file could not be read: {path}',
        'result.uploaded': 'Put {path} into the file field.'
      },
      'zh-CN': {
        ...BROWSER_MESSAGES['zh-CN'],
        title: '在浏览器中上传文件',
        uploadNote: '页面可以把这个文件发送到它的网站。',
        'result.notFound': '未找到该文件字段或它不唯一：{target}',
        'result.notFileField': '该元素不是文件字段。',
        'result.unreadable': '无法读取文件：{path}',
        'result.uploaded': '已将 {path} 放入文件字段。'
      }
    },
    run: (args, ctx) =>
      attempt(async () => {
        const session = await services.browser.session(ctx.conversationId)
        const page = await session.page()
        const found = await locate(page, args.target)
        if (!found.ok) return withDisplay(fail(found.reason), text('result.notFound', { target: describeTarget(args.target) }))
        if (!(await natureOf(found.locator)).fileInput) return withDisplay(fail(`${describeTarget(args.target)} is not a file field.`), text('result.notFileField'))
        // Read race-free, as the file tools do (docs/risk.md, "At run time: file tools").
        const file = await readWorkspaceFile(ctx.workspace, args.path, { maxBytes: MAX_UPLOAD_BYTES, signal: ctx.signal })
        if (!file.ok) return withDisplay(fail(`${args.path} could not be read: ${file.code}.`), text('result.unreadable', { path: args.path }))
        const asked = await confirmed(ctx, {
          title: text('title'),
          fields: [
            { label: text('file'), value: `${file.display} (${file.data.length} bytes)`, code: true },
            { label: text('url'), value: session.scrub(page.url()), code: true },
            { label: text('why'), value: '', display: text('uploadNote') }
          ]
        })
        if (!asked) return denied(`uploading ${file.display}`)
        const { notes } = await session.during(guardFor(ctx), () =>
          found.locator.setInputFiles({ name: basename(file.display), mimeType: 'application/octet-stream', buffer: file.data })
        )
        const output = await pageState(session, `Put ${file.display} (${file.data.length} bytes) into ${describeTarget(args.target)}; it is sent with the form.`, notes)
        return output.isError ? output : withDisplay(output, text('result.uploaded', { path: file.display }))
      })
  })
}
