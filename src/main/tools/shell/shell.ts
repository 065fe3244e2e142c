import { z } from 'zod'
import { defineTool, fail, ok } from '../define-tool'

const DEFAULT_TIMEOUT_S = 120
const MAX_TIMEOUT_S = 1_800

export const shellTool = defineTool({
  name: 'shell',
  description:
    'Run a shell command in the workspace folder and return its exit code, stdout and stderr. ' +
    'Use for builds, tests, git, searching (grep/rg/find) and other command-line work. ' +
    `Commands are stopped after "timeout" seconds (default ${DEFAULT_TIMEOUT_S}). Prefer file tools for reading and editing files.`,
  compactDescription: 'Run a shell command in the workspace',
  category: 'shell',
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
  preview: (args, { workspace, runtime }) => ({
    title: 'Run a shell command',
    fields: [
      { label: 'Command', value: args.command, code: true, arg: 'command' },
      { label: 'Folder', value: workspace, code: true },
      { label: 'Timeout', value: `${args.timeout ?? DEFAULT_TIMEOUT_S} s` },
      { label: 'Runs in', value: runtimeLabel(runtime) }
    ]
  }),
  async run(args, ctx) {
    const result = await ctx.runtime.exec({
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
    if (result.cancelled) return fail(`Command cancelled by the user after ${result.durationMs} ms.\n${body}`)
    if (result.timedOut) {
      return fail(`Command timed out after ${args.timeout ?? DEFAULT_TIMEOUT_S} s and was stopped.\n${body}`)
    }
    if (result.oomKilled) return fail(`Command ran out of memory in the sandbox and was killed.\n${body}`)
    const status = result.exitCode === null ? `killed by ${result.signal}` : `exit code ${result.exitCode}`
    const note = result.truncated ? '\n[output over the runtime limit was dropped]' : ''
    const text = `${status}\n${body}${note}`
    return result.exitCode === 0 ? ok(text) : fail(text)
  }
})

/** What the approval shows about where the command runs: the user decides knowing whether a sandbox bounds it. */
function runtimeLabel(runtime: string): string {
  switch (runtime) {
    case 'docker':
      return 'docker (sandbox: no network, read-only system, only the workspace writable)'
    case 'bwrap':
      return 'bwrap (sandbox: no network, read-only system, only the workspace writable)'
    case 'sandbox-exec':
      return 'sandbox-exec (sandbox: no network, only the workspace writable)'
    case 'native':
      return 'native (no sandbox: runs directly on this computer)'
    default:
      return runtime
  }
}
