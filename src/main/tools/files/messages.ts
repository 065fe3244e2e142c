import { confineToWorkspace, WorkspaceEscapeError, type WorkspaceRefusal } from '../../workspace'
import { fail, text, withDisplay, type ToolOutput } from '../define-tool'

/** Labels the file tools share in their approval previews. */
export const PATH_LABELS = {
  en: { path: 'Path' },
  'zh-CN': { path: '路径' }
} as const

/**
 * Result lines (ToolOutput.display) more than one file tool gives; spread into each file tool's
 * messages. Most are the refusals of the race-free open (docs/risk.md, "At run time: file tools").
 */
export const FILE_RESULTS = {
  en: {
    'result.notFound': 'File not found: {path}.',
    'result.outside': '{path} is outside the workspace.',
    'result.linkOutside': '{path} is a symbolic link that leads outside the workspace; it was not followed.',
    'result.tooManyLinks': 'Too many symbolic links on the way to {path}.',
    'result.notFolder': '{path} is a file, not a folder.',
    'result.isFolder': '{path} is a folder, not a file.',
    'result.special': '{path} is not a regular file (a pipe, socket or device); DeskClaw does not open it.',
    'result.hardLinked': '{path} has other hard links; DeskClaw does not read or write such files because the other name may be outside the workspace.',
    'result.changed': '{path} changed while it was being opened (it was swapped); nothing was read or written.',
    'result.tooLarge': '{path} is too large to read ({bytes} bytes).',
    'result.stopped': 'Stopped while reading {path}.',
    'result.noSpace': 'Not enough space to write {path}; nothing was changed.',
    'result.permission': 'No permission to use {path}.',
    'result.ioFailed': '{path} could not be used ({error}); nothing was changed.'
  },
  'zh-CN': {
    'result.notFound': '找不到文件：{path}。',
    'result.outside': '{path} 在工作区之外。',
    'result.linkOutside': '{path} 是指向工作区之外的符号链接，未跟随。',
    'result.tooManyLinks': '通往 {path} 的路径上符号链接过多。',
    'result.notFolder': '{path} 是文件，不是文件夹。',
    'result.isFolder': '{path} 是文件夹，不是文件。',
    'result.special': '{path} 不是普通文件（管道、套接字或设备），DeskClaw 不会打开它。',
    'result.hardLinked': '{path} 还有其他硬链接；另一个名称可能在工作区之外，因此 DeskClaw 不读写这类文件。',
    'result.changed': '{path} 在打开时发生了变化（被替换），未读取也未写入任何内容。',
    'result.tooLarge': '{path} 太大，无法读取（{bytes} 字节）。',
    'result.stopped': '读取 {path} 时已停止。',
    'result.noSpace': '空间不足，无法写入 {path}，未做任何更改。',
    'result.permission': '没有使用 {path} 的权限。',
    'result.ioFailed': '无法使用 {path}（{error}），未做任何更改。'
  }
} as const

/** A refusal of the workspace as the error result the model and the person see. */
export function refusalOutput(refusal: WorkspaceRefusal, requested: string): ToolOutput {
  const path = refusal.path
  switch (refusal.code) {
    case 'outside':
      return withDisplay(fail(new WorkspaceEscapeError(requested).message), text('result.outside', { path: requested }))
    case 'linkOutside':
      return withDisplay(
        fail(`${path} is a symbolic link that leads outside the workspace; file tools do not follow it. Use the real path inside the workspace.`),
        text('result.linkOutside', { path })
      )
    case 'tooManyLinks':
      return withDisplay(fail(`Too many symbolic links on the way to ${path} (a loop?).`), text('result.tooManyLinks', { path }))
    case 'notFound':
      return withDisplay(fail(`File not found: ${path}`), text('result.notFound', { path }))
    case 'notFolder':
      return withDisplay(fail(`${path} is a file, not a folder.`), text('result.notFolder', { path }))
    case 'isFolder':
      return withDisplay(fail(`${path} is a folder; use file_list to see what it holds.`), text('result.isFolder', { path }))
    case 'special':
      return withDisplay(fail(`${path} is not a regular file (a FIFO, socket or device); file tools only open regular files.`), text('result.special', { path }))
    case 'hardLinked':
      return withDisplay(
        fail(`${path} has other hard links; DeskClaw does not read or write such files because the other name may be outside the workspace.`),
        text('result.hardLinked', { path })
      )
    case 'changed':
      return withDisplay(
        fail(`${path} changed while it was being opened (it was swapped for a link or moved); nothing was read or written. Try again if that was expected.`),
        text('result.changed', { path })
      )
    case 'tooLarge':
      return withDisplay(fail(`${path} is ${refusal.detail} bytes, larger than file tools handle.`), text('result.tooLarge', { path, bytes: refusal.detail ?? '?' }))
    case 'stopped':
      return withDisplay(fail('Cancelled by the user.'), text('result.stopped', { path }))
    case 'noSpace':
      return withDisplay(fail(`Not enough space to write ${path} (${refusal.detail}); the file was left as it was.`), text('result.noSpace', { path }))
    case 'permission':
      return withDisplay(fail(`No permission to use ${path} (${refusal.detail}).`), text('result.permission', { path }))
    case 'ioFailed':
      return withDisplay(
        fail(`${path} could not be used (${refusal.detail}); the file was left as it was.`),
        text('result.ioFailed', { path, error: refusal.detail ?? '?' })
      )
  }
}

/** The preview field every file tool shows first: the path, resolved against the workspace (refused when it leaves it). */
export function pathField(workspace: string, path: string) {
  return { label: text('path'), value: confineToWorkspace(workspace, path).display, code: true, arg: 'path' }
}
