import { z } from 'zod'
import type { Runtime } from '../../runtime'
import { defineTool, fail, ok, text, withDisplay, type AnyTool } from '../define-tool'
import { commandLineOf } from './command-line'
import { commandSink, untrusted } from '../../provenance'

const TIMEOUT_MS = 60_000

/** The subcommands the tool runs: reads (judged silent by the git spec when their options are known) and writes (always ask). */
export const GIT_SUBCOMMANDS = ['status', 'diff', 'log', 'show', 'blame', 'branch', 'add', 'commit', 'checkout', 'switch', 'stash'] as const

/**
 * What the tool runs for a call: `git --no-pager SUBCOMMAND ARGS…` as an argv, never a shell line.
 * The same words, quoted, are the risk subject, so the call is judged exactly like that command
 * line in the shell tool: the git spec tables, the repository config check (a config that runs
 * programs asks or denies), pathspecs that leave the workspace.
 */
export function gitArgv(args: { subcommand: string; args?: readonly string[] }): string[] {
  return ['git', '--no-pager', args.subcommand, ...(args.args ?? [])]
}

export interface GitToolServices {
  /** Where git runs; the shell tool's runtime. */
  runtime: Runtime
}

export function createGitTool(runtime: Runtime): AnyTool {
  return defineTool({
    name: 'git',
    repeat: 'may-differ',
    description:
      'Run git in the workspace repository: status, diff, log, show, blame, branch (reads, run without asking when their options are ordinary) ' +
      'and add, commit, checkout, switch, stash (these ask first). "args" are the words after the subcommand, e.g. ' +
      '{"subcommand":"log","args":["--oneline","-n","10"]} or {"subcommand":"commit","args":["-m","Fix the parser"]}. No shell: quoting is not needed.',
    shortDescription: 'Run git "subcommand" with "args" (the words after it, no shell quoting) in the workspace repository; add, commit, checkout, switch and stash ask first.',
    category: 'shell',
    access: 'execute',
    source: untrusted('command_output'),
    sink: { may: ['send', 'persist'], of: (args) => commandSink(commandLineOf(gitArgv(args))) },
    input: z.object({
      subcommand: z.enum(GIT_SUBCOMMANDS),
      args: z.array(z.string().max(4_000)).max(100).optional().describe('Words after the subcommand')
    }),
    subjectKind: 'command',
    subject: (args) => ({ value: commandLineOf(gitArgv(args)) }),
    summary: (args) => commandLineOf(gitArgv(args)),
    async preview(args, { workspace }) {
      await runtime.ready?.()
      return {
        title: text('title'),
        fields: [
          { label: text('command'), value: commandLineOf(gitArgv(args)), code: true },
          { label: text('folder'), value: workspace, code: true },
          { label: text('runsIn'), value: runtime.name }
        ]
      }
    },
    messages: {
      en: {
        title: 'Run git',
        command: 'Command',
        folder: 'Folder',
        runsIn: 'Runs in',
        'result.exited': 'git exited with code {code} (ran in {runtime}).',
        'result.cancelled': 'Cancelled by the user.',
        'result.timedOut': 'git did not finish in {seconds} s and was stopped.'
      },
      'zh-CN': {
        title: '运行 git',
        command: '命令',
        folder: '文件夹',
        runsIn: '运行位置',
        'result.exited': 'git 退出码 {code}（运行于 {runtime}）。',
        'result.cancelled': '已被用户取消。',
        'result.timedOut': 'git 在 {seconds} 秒内没有完成，已被停止。'
      }
    },
    truncationHint: 'Narrow it: a path, -n for log, --stat for diff.',
    async run(args, ctx) {
      const result = await runtime.exec({
        argv: gitArgv(args),
        cwd: ctx.workspace,
        workspace: ctx.workspace,
        conversationId: ctx.conversationId,
        // Nothing may wait for a person at a terminal: no pager, no editor (commit without -m aborts), no password prompt.
        env: { GIT_PAGER: 'cat', GIT_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0' },
        timeoutMs: TIMEOUT_MS,
        signal: ctx.signal,
        onOutput: ctx.onOutput
      })
      const printed = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter(Boolean).join('\n')
      const ranIn = result.runtime
      if (result.cancelled) return { ...withDisplay(fail('Cancelled by the user.'), text('result.cancelled')), ranIn }
      if (result.timedOut) {
        return { ...withDisplay(fail(`git did not finish in ${TIMEOUT_MS / 1000} s and was stopped.\n${printed}`), text('result.timedOut', { seconds: TIMEOUT_MS / 1000 })), ranIn }
      }
      const code = result.exitCode ?? -1
      const body = printed === '' ? '(no output)' : printed
      const output = result.exitCode === 0 ? ok(body, printed) : { ...fail(`exit code ${code}\n${body}`), forUser: printed }
      return { ...withDisplay(output, text('result.exited', { code, runtime: ranIn })), ranIn }
    }
  })
}
