import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync, existsSync, linkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'
import type { AgentEvent, AgentEventOf, ApprovalAnswer } from '../../src/shared'

/**
 * The approval is bound to the file-system objects it named (docs/risk.md, "At run time"): a folder
 * swapped for a symlink while the question is on screen voids the answer, and the question comes
 * again with what changed — the call never runs on the new target unasked. Native runtime, so
 * nothing but the re-judgement stands between the swap and the write.
 */
const shell = (command: string): ScriptStep => ({ toolCalls: [{ name: 'shell', args: { command } }] })
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is AgentEventOf<T> => e.type === type)

let server: ScriptedServer | undefined
let temp: TempApp | undefined
let home: string | undefined
afterEach(async () => {
  await temp?.dispose()
  await server?.close()
  if (home) rmSync(home, { recursive: true, force: true })
  temp = server = home = undefined
})

/** A fake home with a ~/.ssh the swap points into, and an app whose path guardian protects it. */
async function setup(script: ScriptStep[]): Promise<{ app: TempApp; ssh: string }> {
  home = mkdtempSync(join(tmpdir(), 'deskclaw-home-'))
  const ssh = join(home, '.ssh')
  mkdirSync(ssh)
  writeFileSync(join(ssh, 'todo.txt'), 'old secret line\n')
  writeFileSync(join(ssh, 'authorized_keys'), 'ssh-ed25519 AAAA owner\n')
  server = await startScriptedOpenAI(script)
  temp = createTempApp(server.url, { runtime: 'native' }, {}, { home })
  return { app: temp, ssh }
}

/** Answers each question in turn; `beforeAnswer` runs first (the racer's moment: the question is on screen). */
function answerInTurn(app: TempApp, answers: ApprovalAnswer[], beforeAnswer: (index: number) => void): void {
  const detach = app.app.approvals.attachFrontDoor('test')
  let index = 0
  const unsubscribe = app.app.events.subscribe((event) => {
    if (event.kind !== 'agent' || event.event.type !== 'approval_requested') return
    const question = event.event
    const i = index++
    beforeAnswer(i)
    app.app.approvals.respond(question.approvalId, answers[i] ?? 'deny', { bindingHash: question.bindingHash })
  })
  const dispose = app.dispose.bind(app)
  app.dispose = async () => {
    detach()
    unsubscribe()
    await dispose()
  }
}

/** Replaces a workspace folder by a symlink to `target` (what an attacker on the machine would do). */
function swapForSymlink(folder: string, target: string): void {
  renameSync(folder, `${folder}.moved`)
  symlinkSync(target, folder)
}

describe('an approval is bound to the objects it named', () => {
  it('sed -i: the folder swapped for a symlink to ~/.ssh while asked → asked again with the change, never run there', async () => {
    const { app, ssh } = await setup([shell('sed -i s/old/new/ data/todo.txt'), { text: 'done' }])
    mkdirSync(join(app.workspace, 'data'))
    writeFileSync(join(app.workspace, 'data', 'todo.txt'), 'old line\n')
    answerInTurn(app, ['allow_once', 'deny'], (i) => {
      if (i === 0) swapForSymlink(join(app.workspace, 'data'), ssh)
    })
    const { events } = await runPrompt(app, 'edit the todo list')
    const questions = of(events, 'approval_requested')
    expect(questions).toHaveLength(2)
    const changed = questions[1]!.assessment.findings.find((f) => f.rule === 'run.changed-since-asked')
    expect(changed?.message).toMatch(/~\/\.ssh\/todo\.txt/)
    expect(questions[1]!.bindingHash).not.toBe(questions[0]!.bindingHash)
    expect(of(events, 'risk_assessed').map((e) => e.source)).toEqual(['policy', 'rejudged'])
    expect(of(events, 'tool_call_completed')[0]).toMatchObject({ status: 'denied' })
    expect(readFileSync(join(ssh, 'todo.txt'), 'utf8')).toBe('old secret line\n')
  })

  it('an approved append: the folder swapped while asked → asked again; allowed the second time, it runs where the user saw', async () => {
    const { app, ssh } = await setup([shell('echo attacker-key >> keys/authorized_keys'), { text: 'done' }])
    mkdirSync(join(app.workspace, 'keys'))
    writeFileSync(join(app.workspace, 'keys', 'authorized_keys'), '')
    answerInTurn(app, ['allow_once', 'deny'], (i) => {
      if (i === 0) swapForSymlink(join(app.workspace, 'keys'), ssh)
    })
    const { events } = await runPrompt(app, 'append')
    expect(of(events, 'approval_requested')).toHaveLength(2)
    expect(readFileSync(join(ssh, 'authorized_keys'), 'utf8')).toBe('ssh-ed25519 AAAA owner\n')
  })

  it('file_write: the folder swapped for a symlink to .git/hooks while asked → asked again naming the hook', async () => {
    const { app } = await setup([{ toolCalls: [{ name: 'file_write', args: { path: 'scripts/pre-commit', content: '#!/bin/sh\necho owned\n' } }] }, { text: 'done' }])
    mkdirSync(join(app.workspace, '.git', 'hooks'), { recursive: true })
    mkdirSync(join(app.workspace, 'scripts'))
    answerInTurn(app, ['allow_once', 'deny'], (i) => {
      if (i === 0) swapForSymlink(join(app.workspace, 'scripts'), join(app.workspace, '.git', 'hooks'))
    })
    const { events } = await runPrompt(app, 'write the script')
    const questions = of(events, 'approval_requested')
    expect(questions).toHaveLength(2)
    expect(questions[1]!.assessment.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['run.changed-since-asked', 'path.sensitive']))
    expect(questions[1]!.assessment.findings[0]!.message).toMatch(/\.git\/hooks\/pre-commit/)
    expect(existsSync(join(app.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false)
  })

  it('a file replaced by a hard link to a secret while asked → asked again, the secret untouched', async () => {
    const { app, ssh } = await setup([shell('sed -i s/old/new/ notes.txt'), { text: 'done' }])
    writeFileSync(join(app.workspace, 'notes.txt'), 'old note\n')
    answerInTurn(app, ['allow_once', 'deny'], (i) => {
      if (i !== 0) return
      rmSync(join(app.workspace, 'notes.txt'))
      linkSync(join(ssh, 'todo.txt'), join(app.workspace, 'notes.txt'))
    })
    const { events } = await runPrompt(app, 'edit notes')
    expect(of(events, 'approval_requested')).toHaveLength(2)
    expect(of(events, 'approval_requested')[1]!.assessment.findings[0]!.message).toMatch(/notes\.txt was replaced|notes\.txt now has 2 hard links/)
    expect(readFileSync(join(ssh, 'todo.txt'), 'utf8')).toBe('old secret line\n')
  })

  it('nothing changed while asked → one question, and the command runs', async () => {
    const { app } = await setup([shell('sed -i s/old/new/ data/todo.txt'), { text: 'done' }])
    mkdirSync(join(app.workspace, 'data'))
    writeFileSync(join(app.workspace, 'data', 'todo.txt'), 'old line\n')
    answerInTurn(app, ['allow_once'], () => {})
    const { events } = await runPrompt(app, 'edit')
    expect(of(events, 'approval_requested')).toHaveLength(1)
    expect(of(events, 'tool_call_completed')[0]).toMatchObject({ status: 'completed' })
    expect(readFileSync(join(app.workspace, 'data', 'todo.txt'), 'utf8')).toBe('new line\n')
  })

  it('"allow for this conversation" does not cover the same call once its folder leads elsewhere', async () => {
    // Two runs of one conversation: within one run an unchanged write is not repeated (docs/architecture.md, "Result cache and repeated writes").
    const { app, ssh } = await setup([shell('sed -i s/old/new/ data/todo.txt'), { text: 'once' }, shell('sed -i s/old/new/ data/todo.txt'), { text: 'done' }])
    mkdirSync(join(app.workspace, 'data'))
    writeFileSync(join(app.workspace, 'data', 'todo.txt'), 'old line\n')
    answerInTurn(app, ['allow_conversation', 'deny'], () => {})
    const first = await runPrompt(app, 'edit')
    // After the first call completed, before the second is judged.
    swapForSymlink(join(app.workspace, 'data'), ssh)
    const second = await runPrompt(app, 'edit again', first.conversationId)
    const events = [...first.events, ...second.events]
    expect(of(events, 'approval_requested')).toHaveLength(2)
    expect(of(events, 'tool_call_completed').map((e) => e.status)).toEqual(['completed', 'denied'])
    expect(readFileSync(join(ssh, 'todo.txt'), 'utf8')).toBe('old secret line\n')
  })
})
