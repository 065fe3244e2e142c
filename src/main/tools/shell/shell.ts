import { z } from 'zod'
import { commandSink, untrusted } from '../../provenance'
import { SHELL_SUBJECT } from '../../risk'
import type { Runtime } from '../../runtime'
import { defineTool, fail, ok, text, withDisplay, type AnyTool } from '../define-tool'

const DEFAULT_TIMEOUT_S = 120
const MAX_TIMEOUT_S = 1_800

/** Runtime names with a sentence the approval shows: the user decides knowing whether a sandbox bounds the command. */
const DESCRIBED_RUNTIMES = new Set(['docker', 'bwrap', 'sandbox-exec', 'native'])

export interface ShellToolServices {
  /** Where commands run; chosen by settings, never by the model. */
  runtime: Runtime
}

export function createShellTool({ runtime }: ShellToolServices): AnyTool {
  return defineTool({
    name: SHELL_SUBJECT.tool,
    repeat: 'may-differ',
    description:
      'Run a shell command in the workspace folder and return its exit code, stdout and stderr. ' +
      'Use for builds, tests, git, searching (grep/rg/find) and other command-line work. ' +
      `Commands are stopped after "timeout" seconds (default ${DEFAULT_TIMEOUT_S}). Prefer file tools for reading and editing files.`,
    shortDescription: 'Run a shell "command" in the workspace and get its exit code, stdout and stderr; stopped after "timeout" seconds (default 120).',
    category: 'shell',
    access: 'execute',
    source: untrusted('command_output'),
    sink: { may: ['send', 'persist'], of: (args) => commandSink(args.command) },
    input: z.object({
      command: z.string().min(1).describe('The command line to run'),
      timeout: z
        .number()
        .int()
        .min(1)
        .max(MAX_TIMEOUT_S)
        .optional()
        .describe(`Seconds before the command is stopped (default ${DEFAULT_TIMEOUT_S})`)
    }),
    subjectKind: 'command',
    subject: (args) => ({ value: args.command, arg: SHELL_SUBJECT.arg }),
    summary: (args) => args.command,
    async preview(args, { workspace }) {
      // The runtime's name is final once it has been chosen (auto probes docker and bwrap once).
      await runtime.ready?.()
      const name = runtime.name
      return {
        title: text('title'),
        fields: [
          { label: text('command'), value: args.command, code: true, arg: SHELL_SUBJECT.arg },
          { label: text('folder'), value: workspace, code: true },
          { label: text('timeout'), value: `${args.timeout ?? DEFAULT_TIMEOUT_S} s` },
          { label: text('runsIn'), value: name, ...(DESCRIBED_RUNTIMES.has(name) ? { display: text(`runtime.${name}`) } : {}) }
        ]
      }
    },
    messages: {
      en: {
        title: 'Run a shell command',
        command: 'Command',
        folder: 'Folder',
        timeout: 'Timeout',
        runsIn: 'Runs in',
        'runtime.docker': 'docker (sandbox: no network, read-only system, only the workspace writable)',
        'runtime.bwrap': 'bwrap (sandbox: no network, read-only system, only the workspace writable)',
        'runtime.sandbox-exec': 'sandbox-exec (sandbox: no network, only the workspace writable)',
        'runtime.native': 'native (no sandbox: runs directly on this computer)',
        'result.exited': 'Exited with code {code} (ran in {runtime}).',
        'result.killed': 'Killed by {signal} (ran in {runtime}).',
        'result.cancelled': 'Cancelled by the user.',
        'result.timedOut': 'Timed out after {seconds} s and was stopped.',
        'result.outOfMemory': 'Ran out of memory in the sandbox and was killed.'
      },
      'zh-CN': {
        title: '运行 shell 命令',
        command: '命令',
        folder: '文件夹',
        timeout: '超时',
        runsIn: '运行位置',
        'runtime.docker': 'docker（沙箱：无网络、系统只读、只有工作区可写）',
        'runtime.bwrap': 'bwrap（沙箱：无网络、系统只读、只有工作区可写）',
        'runtime.sandbox-exec': 'sandbox-exec（沙箱：无网络、只有工作区可写）',
        'runtime.native': 'native（无沙箱：直接在本机运行）',
        'result.exited': '退出码 {code}（运行于 {runtime}）。',
        'result.killed': '被信号 {signal} 终止（运行于 {runtime}）。',
        'result.cancelled': '已被用户取消。',
        'result.timedOut': '超过 {seconds} 秒，已被停止。',
        'result.outOfMemory': '在沙箱中内存不足，已被终止。'
      }
    },
    truncationHint: 'Narrow the command (grep, head, tail, sed -n) to see the omitted part.',
    async run(args, ctx) {
      const result = await runtime.exec({
        command: args.command,
        cwd: ctx.workspace,
        workspace: ctx.workspace,
        conversationId: ctx.conversationId,
        timeoutMs: (args.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
        signal: ctx.signal,
        onOutput: ctx.onOutput
      })
      const sections = [
        result.stdout && `stdout:\n${result.stdout.trimEnd()}`,
        result.stderr && `stderr:\n${result.stderr.trimEnd()}`
      ].filter(Boolean)
      const body = sections.length > 0 ? sections.join('\n\n') : '(no output)'
      // The person sees what the command printed, nothing added: the outcome ("exited with code 0",
      // "timed out") is the translated display line above it (issue 22, items 5 and 8; docs/architecture.md,
      // "Texts from main"). The model gets the framed text.
      const printed = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter(Boolean).join('\n')
      const forUser = result.truncated ? `${printed}\n[…]` : printed
      const ranIn = runtime.name
      if (result.cancelled) {
        return { ...withDisplay(fail(`Command cancelled by the user after ${result.durationMs} ms.\n${body}`), text('result.cancelled')), forUser, ranIn }
      }
      if (result.timedOut) {
        const seconds = args.timeout ?? DEFAULT_TIMEOUT_S
        return { ...withDisplay(fail(`Command timed out after ${seconds} s and was stopped.\n${body}`), text('result.timedOut', { seconds })), forUser, ranIn }
      }
      if (result.oomKilled) {
        return { ...withDisplay(fail(`Command ran out of memory in the sandbox and was killed.\n${body}`), text('result.outOfMemory')), forUser, ranIn }
      }
      const status = result.exitCode === null ? `killed by ${result.signal}` : `exit code ${result.exitCode}`
      const note = result.truncated ? '\n[output over the runtime limit was dropped]' : ''
      const output = `${status}\n${body}${note}`
      const shown =
        result.exitCode === null
          ? text('result.killed', { signal: String(result.signal), runtime: ranIn })
          : text('result.exited', { code: result.exitCode, runtime: ranIn })
      return { ...withDisplay(result.exitCode === 0 ? ok(output) : fail(output), shown), forUser, ranIn }
    }
  })
}
