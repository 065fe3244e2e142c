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
  preview: (args, { workspace }) => ({
    title: 'Run a shell command',
    fields: [
      { label: 'Command', value: args.command, code: true, arg: 'command' },
      { label: 'Folder', value: workspace, code: true },
      { label: 'Timeout', value: `${args.timeout ?? DEFAULT_TIMEOUT_S} s` }
    ]
  }),
  async run(args, ctx) {
    const result = await ctx.runtime.exec({
      command: args.command,
      cwd: ctx.workspace,
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
    const status = result.exitCode === null ? `killed by ${result.signal}` : `exit code ${result.exitCode}`
    const text = `${status}\n${body}`
    return result.exitCode === 0 ? ok(text) : fail(text)
  }
})
