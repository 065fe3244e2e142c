/**
 * `deskclaw undo` as users run it, the built command (docs/cli.md, docs/checkpoints.md): a dry run
 * changes nothing, the undo restores the run's files and keeps one changed since (unless
 * --take-checkpoint), its last line says how to redo, and --redo puts the run's files back.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { createTempApp, runPrompt, type TempApp } from '../helpers/temp-app'

requireBuiltCli()

let server: ScriptedServer | undefined
let temp: TempApp | undefined
afterEach(async () => {
  await temp?.dispose()
  await server?.close()
  temp = server = undefined
})

async function deskclaw(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { ...process.env, DESKCLAW_HOME: join(tmpdir(), 'deskclaw-no-such-home') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] })

describe('deskclaw undo', () => {
  it('is listed in the main help and has its own', async () => {
    const main = await deskclaw(['--help'])
    expect(main.stdout).toMatch(/^ {2}deskclaw undo RUN_ID\|CALL_ID/m)
    const own = await deskclaw(['undo', '--help'])
    expect(own.code).toBe(0)
    expect(own.stdout).toContain('deskclaw undo --redo UNDO_ID')
  })

  it('dry-runs, undoes a run keeping a file changed since, and redoes it', async () => {
    server = await startScriptedOpenAI([
      call('file_write', { path: 'a.txt', content: 'agent\n' }),
      call('shell', { command: 'printf "made\\n" > made.txt && printf "agent notes\\n" > notes.txt' }),
      { text: 'Done.' }
    ])
    temp = createTempApp(server.url, { runtime: 'native', autonomy: 'full' })
    const file = (name: string) => join(temp!.workspace, name)
    writeFileSync(file('a.txt'), 'original\n')
    writeFileSync(file('notes.txt'), 'original notes\n')
    const { runId } = await runPrompt(temp, 'change the files')
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('agent\n')
    // Someone edits notes.txt after the run.
    writeFileSync(file('notes.txt'), 'my own notes\n')

    const dry = await deskclaw(['undo', runId, '--dry-run', '--data-dir', temp.dataDir])
    expect(dry.stderr).toBe('')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('restore a.txt (+1 −1)')
    expect(dry.stdout).toContain('delete made.txt')
    expect(dry.stdout).toMatch(/1 file\(s\) changed after the run: kept as they are now/)
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('agent\n')
    expect(existsSync(file('made.txt'))).toBe(true)

    const undone = await deskclaw(['undo', runId, '--data-dir', temp.dataDir])
    expect(undone.stderr).toBe('')
    expect(undone.code).toBe(0)
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('original\n')
    expect(existsSync(file('made.txt'))).toBe(false)
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('my own notes\n')
    const redoLine = undone.stdout.trim().split('\n').pop()!
    const undoId = /^redo with: deskclaw undo --redo ([0-9a-f]{40})$/.exec(redoLine)?.[1]
    expect(undoId).toBeDefined()

    const redone = await deskclaw(['undo', '--redo', undoId!, '--json', '--data-dir', temp.dataDir])
    expect(redone.code).toBe(0)
    expect(JSON.parse(redone.stdout).restored.sort()).toEqual(['a.txt', 'made.txt'])
    expect(readFileSync(file('a.txt'), 'utf8')).toBe('agent\n')
    expect(readFileSync(file('made.txt'), 'utf8')).toBe('made\n')
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('my own notes\n')
  })

  it('says what is wrong with the arguments', async () => {
    const result = await deskclaw(['undo'])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('give a run or call id, or --redo UNDO_ID')
  })
})
