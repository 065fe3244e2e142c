import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'
import { requireCapability } from '../helpers/capability'
import type { AgentEvent, AgentEventOf } from '../../src/shared'
import { BwrapRuntime } from '../../src/main/runtime'

/*
 * run_code inside the whole app (docs/tools.md, "run_code"): the level from Settings, the code
 * sandbox the app builds from the runtime settings, the approval and the checkpoint of a writable run.
 */
const WRITE = { language: 'python', code: "open('from-code.txt', 'w').write('written by run_code\\n'); print('done')" }
const RUN: ScriptStep[] = [{ toolCalls: [{ name: 'run_code', args: WRITE }] }, { text: 'Finished.' }]
/** No sandbox anywhere: no bwrap binary, a Docker engine address nobody answers. */
const NO_SANDBOX = { bwrapPath: '/nonexistent/bwrap', dockerHost: 'tcp://127.0.0.1:1' }

const completed = (events: AgentEvent[]) => events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')
const asked = (events: AgentEvent[]) => events.filter((e): e is AgentEventOf<'approval_requested'> => e.type === 'approval_requested')

let server: ScriptedServer | undefined
let temp: TempApp | undefined
afterEach(async () => {
  await temp?.dispose()
  await server?.close()
  temp = server = undefined
})

const probe = await BwrapRuntime.probe()
const bwrap = process.platform === 'linux' && requireCapability('bwrap', probe.ok, `${probe.ok ? '' : probe.reason} apt-get install bubblewrap`)

describe('run_code in the app', () => {
  it('strict with no sandbox: refused with its message code, nobody asked, nothing written', async () => {
    server = await startScriptedOpenAI(RUN)
    temp = createTempApp(server.url, { runtime: 'auto', autonomy: 'supervised', codeStrictness: 'strict' }, {}, { runtimeProbe: NO_SANDBOX })
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'write a file with python')
    expect(asked(events)).toEqual([])
    const [result] = completed(events)
    expect(result).toMatchObject({ tool: 'run_code', isError: true, display: { key: 'result.strictNoSandbox' } })
    expect(existsSync(join(temp.workspace, 'from-code.txt'))).toBe(false)
  }, 60_000)

  it.runIf(bwrap)('standard with the native shell runtime: asks showing the bwrap sandbox, writes, and the step carries its diff', async () => {
    server = await startScriptedOpenAI(RUN)
    temp = createTempApp(server.url, { runtime: 'native', autonomy: 'supervised', codeStrictness: 'standard' }, {}, { runtimeProbe: { dockerHost: NO_SANDBOX.dockerHost } })
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'write a file with python')
    const [question] = asked(events)
    const fields = Object.fromEntries(question!.preview.fields.map((field) => [field.label.key, field]))
    expect(fields.runsIn).toMatchObject({ value: 'bwrap', display: { key: 'runsIn.sandbox' } })
    expect(fields.workspace?.display?.key).toBe('workspace.writable')
    expect(fields.network?.display?.key).toBe('network.none')
    const [result] = completed(events)
    expect(result).toMatchObject({ tool: 'run_code', isError: false, runtime: 'bwrap' })
    expect(readFileSync(join(temp.workspace, 'from-code.txt'), 'utf8')).toBe('written by run_code\n')
    // A writable run is checkpointed like a shell command: its step records the file it made.
    expect(result!.changes).toMatchObject({ files: 1, added: 1 })
    expect(result!.changes!.before).not.toBe(result!.changes!.after)
  }, 60_000)

  it('standard with no sandbox in full autonomy: still asks, naming why, and runs natively once allowed', async () => {
    server = await startScriptedOpenAI(RUN)
    temp = createTempApp(server.url, { runtime: 'auto', autonomy: 'full', codeStrictness: 'standard' }, {}, { runtimeProbe: NO_SANDBOX })
    temp.setApprover('allow_once')
    const { events } = await runPrompt(temp, 'write a file with python')
    const [question] = asked(events)
    expect(question?.assessment.findings.map((finding) => finding.rule)).toContain('tool.unsandboxed')
    expect(Object.fromEntries(question!.preview.fields.map((field) => [field.label.key, field.display?.key]))).toMatchObject({ runsIn: 'runsIn.native', note: 'note.noSandbox' })
    expect(completed(events)[0]).toMatchObject({ tool: 'run_code', isError: false, runtime: 'native' })
    expect(readFileSync(join(temp.workspace, 'from-code.txt'), 'utf8')).toBe('written by run_code\n')
  }, 60_000)

  it.runIf(bwrap)('standard with a sandbox in full autonomy: runs without a question', async () => {
    server = await startScriptedOpenAI(RUN)
    temp = createTempApp(server.url, { runtime: 'native', autonomy: 'full', codeStrictness: 'standard' }, {}, { runtimeProbe: { dockerHost: NO_SANDBOX.dockerHost } })
    temp.setApprover('deny')
    const { events } = await runPrompt(temp, 'write a file with python')
    expect(asked(events)).toEqual([])
    expect(completed(events)[0]).toMatchObject({ tool: 'run_code', isError: false, runtime: 'bwrap' })
  }, 60_000)
})
