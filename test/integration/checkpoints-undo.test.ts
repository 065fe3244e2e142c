import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../fixtures/scripted-types'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'
import type { AgentEvent, AgentEventOf } from '../../src/shared'
import { undoMain } from '../../src/main/cli/undo'

/**
 * Every change a run made in the workspace can be taken back (docs/checkpoints.md): file tools,
 * shell commands and a binary written by a program; each step carries its diff; undo restores the
 * exact bytes, never overwrites a file changed since without being told, and can itself be redone.
 */
const call = (name: string, args: Record<string, unknown>): ScriptStep => ({ toolCalls: [{ name, args }] })
const completions = (events: AgentEvent[]) => events.filter((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')

function hashes(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name)
      if (entry.isDirectory()) walk(full)
      else out[relative(root, full)] = createHash('sha256').update(readFileSync(full)).digest('hex')
    }
  }
  walk(root)
  return out
}

let server: ScriptedServer | undefined
let temp: TempApp | undefined
afterEach(async () => {
  await temp?.dispose()
  await server?.close()
  temp = server = undefined
})

const RUN: ScriptStep[] = [
  call('file_edit', { path: 'a.txt', old: 'alpha', new: 'ALPHA' }),
  call('file_write', { path: 'b.md', content: '# B\n\nrewritten by the agent\n' }),
  call('shell', { command: 'printf "made by a command\\n" > created.txt && rm gone.txt' }),
  call('shell', { command: "printf '\\211PNG\\r\\n\\032\\n\\000\\001\\002' > logo.png" }),
  { text: 'All done.' }
]

async function setup(): Promise<TempApp> {
  server = await startScriptedOpenAI(RUN)
  temp = createTempApp(server.url, { runtime: 'native', autonomy: 'full' })
  writeFileSync(join(temp.workspace, 'a.txt'), 'alpha beta\n')
  writeFileSync(join(temp.workspace, 'b.md'), '# B\n\noriginal\n')
  writeFileSync(join(temp.workspace, 'gone.txt'), 'to be deleted\n')
  return temp
}

describe('checkpoints and undo of a run', () => {
  it('shows each step’s diff, undoes the run to identical hashes, and redoes it', async () => {
    const app = await setup()
    const original = hashes(app.workspace)
    const { runId, conversationId, events } = await runPrompt(app, 'change the files')
    const done = completions(events)
    expect(done.map((event) => event.status)).toEqual(['completed', 'completed', 'completed', 'completed'])
    expect(done.map((event) => event.changes?.files)).toEqual([1, 1, 2, 1])
    expect(done[0]!.changes).toMatchObject({ added: 1, removed: 1 })
    // The step's diff survives a reload of the conversation.
    const stored = app.app.store.getConversation(conversationId)!.toolCalls
    expect(stored.map((record) => record.changes?.files)).toEqual([1, 1, 2, 1])
    const afterRun = hashes(app.workspace)
    expect(afterRun['logo.png']).toBeDefined()
    // The diff view's two sides: text for a text file, an image preview for the PNG.
    const edit = done[0]!.changes!
    const textSides = await app.app.undo.fileDiff(conversationId, edit.before, edit.after, 'a.txt')
    expect(textSides).toMatchObject({ before: { exists: true, text: 'alpha beta\n' }, after: { exists: true, text: 'ALPHA beta\n' } })
    const png = done[3]!.changes!
    const imageSides = await app.app.undo.fileDiff(conversationId, png.before, png.after, 'logo.png')
    expect(imageSides.before.exists).toBe(false)
    expect(imageSides.after.image?.mediaType).toBe('image/png')
    expect(imageSides.after.text).toBeUndefined()
    const runFiles = await app.app.undo.changes(conversationId, edit.before, png.after)
    expect(runFiles.map((file) => file.path).sort()).toEqual(['a.txt', 'b.md', 'created.txt', 'gone.txt', 'logo.png'])

    const preview = await app.app.undo.preview({ kind: 'run', runId })
    expect(preview.conflicts).toEqual([])
    expect(preview.files.map((file) => `${file.kind} ${file.path}`).sort()).toEqual(
      ['deleted created.txt', 'deleted logo.png', 'added gone.txt', 'modified a.txt', 'modified b.md'].sort()
    )
    expect(preview.files.find((file) => file.path === 'logo.png')?.binary).toBe(true)
    const undone = await app.app.undo.apply(preview.planId)
    expect(undone.failed).toEqual([])
    expect(hashes(app.workspace)).toEqual(original)

    const redoPreview = await app.app.undo.preview({ kind: 'redo', undoId: undone.undoId })
    const redone = await app.app.undo.apply(redoPreview.planId)
    expect(redone.failed).toEqual([])
    expect(hashes(app.workspace)).toEqual(afterRun)
  })

  it('detects a file the user edited after the run and does not overwrite it unless told to', async () => {
    const app = await setup()
    const { runId } = await runPrompt(app, 'change the files')
    writeFileSync(join(app.workspace, 'b.md'), 'the user’s own words\n')
    const preview = await app.app.undo.preview({ kind: 'run', runId })
    expect(preview.conflicts.map((conflict) => conflict.path)).toEqual(['b.md'])
    const undone = await app.app.undo.apply(preview.planId)
    expect(undone.kept).toEqual(['b.md'])
    expect(readFileSync(join(app.workspace, 'b.md'), 'utf8')).toBe('the user’s own words\n')
    expect(readFileSync(join(app.workspace, 'a.txt'), 'utf8')).toBe('alpha beta\n')
    expect(existsSync(join(app.workspace, 'created.txt'))).toBe(false)
  })

  it('refuses to apply a preview after the workspace changed, and undoes a single step', async () => {
    const app = await setup()
    const { runId, events } = await runPrompt(app, 'change the files')
    const shellStep = completions(events)[2]!
    const preview = await app.app.undo.preview({ kind: 'call', runId, callId: shellStep.callId })
    expect(preview.files.map((file) => file.path).sort()).toEqual(['created.txt', 'gone.txt'])
    writeFileSync(join(app.workspace, 'created.txt'), 'edited between preview and apply\n')
    await expect(app.app.undo.apply(preview.planId)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    const again = await app.app.undo.preview({ kind: 'call', runId, callId: shellStep.callId })
    expect(again.conflicts.map((conflict) => conflict.path)).toEqual(['created.txt'])
    await app.app.undo.apply(again.planId, { 'created.txt': 'take-checkpoint' })
    expect(existsSync(join(app.workspace, 'created.txt'))).toBe(false)
    expect(readFileSync(join(app.workspace, 'gone.txt'), 'utf8')).toBe('to be deleted\n')
    // The other steps stay as the run left them.
    expect(readFileSync(join(app.workspace, 'a.txt'), 'utf8')).toBe('ALPHA beta\n')
  })

  it('deskclaw undo: --dry-run prints and changes nothing, then undoes and prints how to redo', async () => {
    const app = await setup()
    const original = hashes(app.workspace)
    const { runId } = await runPrompt(app, 'change the files')
    const afterRun = hashes(app.workspace)
    let printed = ''
    const out = { write: (text: string) => (printed += text) }
    expect(await undoMain([runId, '--dry-run', '--data-dir', app.dataDir], out)).toBe(0)
    expect(printed).toMatch(/^would change 5 file\(s\) in /)
    expect(printed).toContain('delete created.txt')
    expect(printed).toContain('recreate gone.txt')
    expect(hashes(app.workspace)).toEqual(afterRun)
    printed = ''
    expect(await undoMain([runId, '--data-dir', app.dataDir], out)).toBe(0)
    expect(hashes(app.workspace)).toEqual(original)
    const redoId = /deskclaw undo --redo ([0-9a-f]{40})/.exec(printed)?.[1]
    expect(redoId).toBeDefined()
    printed = ''
    expect(await undoMain(['--redo', redoId!, '--json', '--data-dir', app.dataDir], out)).toBe(0)
    expect(JSON.parse(printed)).toMatchObject({ failed: [] })
    expect(hashes(app.workspace)).toEqual(afterRun)
    await expect(undoMain(['--data-dir', app.dataDir], out)).rejects.toThrow(/give a run or call id/)
    await expect(undoMain(['run_nope', '--data-dir', app.dataDir], out)).rejects.toThrow(/no run or tool call "run_nope"/)
  })

  it('deleting the conversation forgets its checkpoints (keepAfterDelete off)', async () => {
    const app = await setup()
    const { conversationId, events } = await runPrompt(app, 'change the files')
    const ids = completions(events).flatMap((event) => [event.changes!.before, event.changes!.after])
    const repo = app.app.checkpoints.forWorkspace(app.workspace).repository()
    const refs = async () => (await import('node:child_process')).execFileSync('git', ['for-each-ref', '--format=%(objectname)', 'refs/checkpoints/'], { env: { ...process.env, GIT_DIR: repo.target.gitDir } }).toString()
    expect(ids.every((id) => id.length === 40)).toBe(true)
    expect(await refs()).toContain(ids.at(-1)!)
    expect(await app.app.deleteConversation(conversationId)).toBe(true)
    expect((await refs()).trim(), `ids: ${ids.join(" ")}`).toBe("")
  })

  it('says there is nothing to undo for a run that changed nothing', async () => {
    server = await startScriptedOpenAI([{ text: 'Nothing to change.' }])
    temp = createTempApp(server.url, { runtime: 'native' })
    const { runId } = await runPrompt(temp, 'hello')
    await expect(temp.app.undo.preview({ kind: 'run', runId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
