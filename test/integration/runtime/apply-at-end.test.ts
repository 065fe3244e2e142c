import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { DeskclawApp } from '../../../src/main/app'
import { BwrapRuntime, DockerRuntime, NativeRuntime, type Runtime } from '../../../src/main/runtime'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../../fixtures/scripted-types'
import { requireCapability } from '../../helpers/capability'
import { dockerTestImageReady, removeTempWorkspaces, tempWorkspace, TEST_IMAGE } from './helpers'

/**
 * Apply-at-end runs (docs/checkpoints.md, "Apply at the end"): under bubblewrap and Docker the run
 * works in a copy; the real workspace is byte-identical until the user applies the reviewed diff,
 * apply writes exactly that diff (or the files chosen), and discard leaves no trace.
 */
const linux = process.platform === 'linux'
const bwrapProbe = linux ? await BwrapRuntime.probe() : { ok: false as const, reason: 'Linux only' }
const bwrapReady = linux && requireCapability('bwrap', bwrapProbe.ok, `${bwrapProbe.ok ? '' : bwrapProbe.reason} apt-get install bubblewrap`)
const dockerReady = linux && (await dockerTestImageReady())

const call = (name: string, args: Record<string, unknown>): ScriptStep => ({ toolCalls: [{ name, args }] })

function hashes(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name)
      if (entry.isDirectory()) walk(full)
      else out[path.relative(root, full)] = createHash('sha256').update(fs.readFileSync(full)).digest('hex')
    }
  }
  walk(root)
  return out
}

let server: ScriptedServer | undefined
let app: DeskclawApp | undefined
afterEach(async () => {
  await app?.close()
  await server?.close()
  app = server = undefined
})
afterAll(() => removeTempWorkspaces())

async function stagedRun(runtime: Runtime, script: (real: string) => ScriptStep[]) {
  const root = tempWorkspace('deskclaw-staged-')
  const workspace = path.join(root, 'ws')
  fs.mkdirSync(workspace)
  fs.writeFileSync(path.join(workspace, 'keep.txt'), 'untouched\n')
  fs.writeFileSync(path.join(workspace, 'edit.txt'), 'before\n')
  fs.writeFileSync(path.join(workspace, 'gone.txt'), 'delete me\n')
  server = await startScriptedOpenAI(script(workspace))
  app = DeskclawApp.create({
    dataDir: path.join(root, 'data'),
    runtime,
    overrides: { provider: 'openai-compatible', baseUrl: server.url, model: 'scripted-model', workspace, autonomy: 'full' }
  })
  const original = hashes(workspace)
  const conversationId = app.store.createConversation().id
  const started = await app.staged.start(conversationId, (copy, runId) => app!.agent.send(conversationId, 'change things', { workspace: copy, runId }))
  await app.agent.wait(started.runId)
  return { workspace, original, runId: started.runId, root }
}

const SCRIPT = (real: string): ScriptStep[] => [
  call('file_write', { path: 'edit.txt', content: 'after\n' }),
  call('shell', { command: 'printf "new file\\n" > made.txt && rm gone.txt && mkdir -p out && printf "\\000\\001\\002" > out/data.bin' }),
  // The real workspace's own path, written directly: the sandbox mounts only the copy.
  call('shell', { command: `printf escaped > ${real}/escape.txt || true` }),
  { text: 'Done.' }
]

for (const [name, ready, make] of [
  ['bubblewrap', bwrapReady, () => new BwrapRuntime()],
  ['Docker', dockerReady, () => new DockerRuntime({ image: TEST_IMAGE })]
] as const) {
  describe.skipIf(!ready)(`apply at the end under ${name}`, () => {
    it('leaves the real workspace byte-identical until apply, then writes exactly the reviewed diff', async () => {
      const { workspace, original, runId } = await stagedRun(make(), SCRIPT)
      expect(hashes(workspace)).toEqual(original)
      const review = await app!.staged.review(runId)
      expect(review.files.map((file) => `${file.kind} ${file.path}`).sort()).toEqual(['added made.txt', 'added out/data.bin', 'deleted gone.txt', 'modified edit.txt'])
      expect(review.conflicts).toEqual([])
      expect(hashes(workspace)).toEqual(original)
      const applied = await app!.staged.apply(runId)
      expect(applied.failed).toEqual([])
      expect(applied.applied.sort()).toEqual(['edit.txt', 'gone.txt', 'made.txt', 'out/data.bin'])
      const now = hashes(workspace)
      expect(Object.keys(now).sort()).toEqual(['edit.txt', 'keep.txt', 'made.txt', 'out/data.bin'])
      expect(fs.readFileSync(path.join(workspace, 'edit.txt'), 'utf8')).toBe('after\n')
      expect(now['keep.txt']).toBe(original['keep.txt'])
      expect(app!.staged.pending()).toEqual([])
    })

    it('applies only the files chosen, keeps a real file changed meanwhile, and discard leaves no trace', async () => {
      const first = await stagedRun(make(), SCRIPT)
      fs.writeFileSync(path.join(first.workspace, 'edit.txt'), 'the user edited this meanwhile\n')
      const review = await app!.staged.review(first.runId)
      expect(review.conflicts).toEqual(['edit.txt'])
      const applied = await app!.staged.apply(first.runId, { paths: ['made.txt', 'edit.txt'] })
      expect(applied.applied).toEqual(['made.txt'])
      expect(applied.kept).toEqual(['edit.txt'])
      expect(fs.readFileSync(path.join(first.workspace, 'edit.txt'), 'utf8')).toBe('the user edited this meanwhile\n')
      expect(fs.existsSync(path.join(first.workspace, 'gone.txt'))).toBe(true)
      await app!.close()
      await server!.close()
      app = server = undefined

      const second = await stagedRun(make(), SCRIPT)
      const stagingRoot = path.join(second.root, 'data', 'staging')
      expect(fs.readdirSync(stagingRoot).length).toBeGreaterThan(0)
      app!.staged.discard(second.runId)
      expect(hashes(second.workspace)).toEqual(second.original)
      expect(fs.readdirSync(stagingRoot)).toEqual([])
      await expect(app!.staged.review(second.runId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })
}

describe('apply at the end without a sandbox', () => {
  it('is refused under the native runtime, which could write the real workspace', async () => {
    const root = tempWorkspace('deskclaw-staged-native-')
    server = await startScriptedOpenAI([{ text: 'never' }])
    app = DeskclawApp.create({ dataDir: path.join(root, 'data'), runtime: new NativeRuntime(), overrides: { baseUrl: server.url, model: 'm', workspace: root } })
    const conversationId = app.store.createConversation().id
    await expect(app.staged.start(conversationId, () => ({ runId: 'x' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', text: { key: 'errors.staged.needsSandbox' } })
  })
})
