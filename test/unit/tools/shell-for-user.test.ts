/**
 * Issue 22, items 5 and 8: what the timeline shows of a shell call is what the command printed —
 * no "exit code 0", "stdout:" or "(no output)" in English under the translated result line that
 * already says how it ended; the model still gets the framed text.
 */
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NativeRuntime } from '../../../src/main/runtime'
import { createShellTools, ToolRegistry } from '../../../src/main/tools'

const registry = new ToolRegistry([createShellTools({ runtime: new NativeRuntime() })])

async function shell(command: string) {
  const checked = registry.checkArgs('shell', { command })
  if (!checked.ok) throw new Error(checked.error)
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'deskclaw-shell-user-')))
  return registry.execute('shell', checked.args, {
    workspace,
    conversationId: 'conv_test',
    runId: 'run_test',
    callId: 'call_test',
    signal: new AbortController().signal,
    onOutput: () => {}
  })
}

describe('the shell result a person sees', () => {
  it('is what the command printed; the outcome is the display line', async () => {
    const done = await shell('echo done')
    expect(done.forUser).toBe('done')
    expect(done.display).toMatchObject({ key: 'result.exited', params: { code: 0 } })
    expect(done.forLlm).toMatch(/^exit code 0\nstdout:\ndone$/)

    const failed = await shell('echo out; echo err >&2; exit 3')
    expect(failed.forUser).toBe('out\nerr')
    expect(failed.isError).toBe(true)
    expect(failed.display).toMatchObject({ key: 'result.exited', params: { code: 3 } })

    const quiet = await shell('true')
    expect(quiet.forUser).toBe('')
    expect(quiet.forLlm).toContain('(no output)')
  })
})
