import { z } from 'zod'
import type { ProjectCheckCommands } from '../../../shared'
import type { Runtime } from '../../runtime'
import { defineTool, fail, ok, text, withDisplay, type AnyTool } from '../define-tool'
import { formatDiagnostic, parseDiagnostics } from './diagnostics'
import { CHECK_KINDS, findProjectCheck } from './project-checks'
import { noSink, untrusted } from '../../provenance'

const TIMEOUT_MS = 600_000
/** The model gets at most this many diagnostics, each one line; the timeline gets the whole output. */
const MAX_LISTED = 200

export interface CheckToolServices {
  /** Where the checks run; the shell tool's runtime. */
  runtime: Runtime
  /** Check commands set per workspace in Settings, consulted before the manifests. */
  projectChecks?(): Readonly<Record<string, ProjectCheckCommands>>
}

export function createLintTool(runtime: Runtime, configured: () => Readonly<Record<string, ProjectCheckCommands>>): AnyTool {
  return defineTool({
    name: 'lint',
    repeat: 'may-differ',
    description:
      "Run the project's own linter, type checker or tests (\"check\": lint, typecheck, test) as the user set them for this workspace " +
      'or the project declares them (package.json scripts, pyproject.toml, Cargo.toml, go.mod) and get the problems as a list of file:line:column severity message [rule]. ' +
      'Runs project code, so it asks first.',
    shortDescription: `Run the project's own "check" (lint, typecheck or test, as its manifests declare it) and get file:line:column problems; asks first.`,
    category: 'shell',
    access: 'execute',
    source: untrusted('command_output'),
    sink: noSink,
    input: z.object({ check: z.enum(CHECK_KINDS).optional().describe('Which check (default: lint)') }),
    summary: (args) => args.check ?? 'lint',
    async preview(args, { workspace }) {
      await runtime.ready?.()
      const found = findProjectCheck(workspace, args.check ?? 'lint', configured())
      return {
        title: text('title'),
        fields: [
          { label: text('command'), value: found?.command ?? '—', code: true },
          { label: text('from'), value: found?.source ?? '—', ...(found?.fromSettings ? { display: text('from.settings') } : {}) },
          { label: text('folder'), value: workspace, code: true },
          { label: text('runsIn'), value: runtime.name }
        ]
      }
    },
    messages: {
      en: {
        title: "Run the project's checks",
        command: 'Command',
        from: 'Declared in',
        'from.settings': 'set for this workspace in Settings',
        folder: 'Folder',
        runsIn: 'Runs in',
        'result.none': 'No {check} command is set for this workspace in Settings or declared by the project (package.json, pyproject.toml, Cargo.toml or go.mod).',
        'result.clean': '{command}: no problems (exit code {code}).',
        'result.problems': '{command}: {count} problems in {files} files (exit code {code}).',
        'result.failedUnparsed': '{command} failed with exit code {code}; see its output.',
        'result.timedOut': '{command} did not finish in {seconds} s and was stopped.',
        'result.cancelled': 'Cancelled by the user.'
      },
      'zh-CN': {
        title: '运行项目检查',
        command: '命令',
        from: '声明于',
        'from.settings': '在设置中为此工作区设定',
        folder: '文件夹',
        runsIn: '运行位置',
        'result.none': '设置中没有为此工作区设定 {check} 命令，项目也没有声明（package.json、pyproject.toml、Cargo.toml 或 go.mod）。',
        'result.clean': '{command}：没有问题（退出码 {code}）。',
        'result.problems': '{command}：{files} 个文件中有 {count} 个问题（退出码 {code}）。',
        'result.failedUnparsed': '{command} 失败，退出码 {code}；请查看输出。',
        'result.timedOut': '{command} 在 {seconds} 秒内没有完成，已被停止。',
        'result.cancelled': '已被用户取消。'
      }
    },
    truncationHint: 'Fix the first problems and run the check again.',
    async run(args, ctx) {
      const check = args.check ?? 'lint'
      const found = findProjectCheck(ctx.workspace, check, configured())
      if (!found) return withDisplay(fail(`No ${check} command is set for this workspace in Settings or declared by the project (looked in package.json scripts, pyproject.toml, Cargo.toml, go.mod).`), text('result.none', { check }))
      const { command } = found
      const result = await runtime.exec({
        command,
        cwd: ctx.workspace,
        workspace: ctx.workspace,
        conversationId: ctx.conversationId,
        env: { CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
        timeoutMs: TIMEOUT_MS,
        signal: ctx.signal,
        onOutput: ctx.onOutput
      })
      const printed = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter(Boolean).join('\n')
      const ranIn = result.runtime
      if (result.cancelled) return { ...withDisplay(fail('Cancelled by the user.'), text('result.cancelled')), forUser: printed, ranIn }
      if (result.timedOut) {
        return { ...withDisplay(fail(`${command} did not finish in ${TIMEOUT_MS / 1000} s.\n${printed}`), text('result.timedOut', { command, seconds: TIMEOUT_MS / 1000 })), forUser: printed, ranIn }
      }
      const code = result.exitCode ?? -1
      const diagnostics = parseDiagnostics(printed, ctx.workspace)
      const files = new Set(diagnostics.map((d) => d.file)).size
      const listed = diagnostics.slice(0, MAX_LISTED).map(formatDiagnostic)
      const more = diagnostics.length > MAX_LISTED ? [`[${diagnostics.length - MAX_LISTED} more not listed]`] : []
      const head = `${command} (${found.source}) exit code ${code}`
      if (diagnostics.length > 0) {
        const output = { forLlm: [head, ...listed, ...more].join('\n'), forUser: printed, isError: code !== 0 }
        return { ...withDisplay(output, text('result.problems', { command, count: diagnostics.length, files, code })), ranIn }
      }
      if (code === 0) return { ...withDisplay(ok(`${head}\nno problems reported`, printed), text('result.clean', { command, code })), ranIn }
      // A failure in a format not known: the model gets the output itself (the loop keeps its head and tail).
      return { ...withDisplay({ forLlm: `${head}\n${printed}`, forUser: printed, isError: true }, text('result.failedUnparsed', { command, code })), ranIn }
    }
  })
}
