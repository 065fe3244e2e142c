import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CodeStrictness } from '../../../src/shared'
import { BwrapRuntime, DockerRuntime, NativeRuntime, SelectedRuntime, type Runtime, type SelectRuntimeOptions } from '../../../src/main/runtime'
import { createCodeTools, ToolRefusal, ToolRegistry, type ToolOutput } from '../../../src/main/tools'
import { requireCapability } from '../../helpers/capability'
import { dockerTestImageReady, hostProcessesMatching, removeTempWorkspaces, repoRoot, sleep, startHttpServer, tempWorkspace } from '../runtime/helpers'

/*
 * run_code through the real runtimes (docs/tools.md, "run_code"): real python3 and node in real
 * bubblewrap and a real Docker container, the sandbox chosen by the real selection code. No stand-ins.
 */
const CODE_IMAGE = 'deskclaw/test-sandbox:code'
/** A sandbox selection that finds nothing: no bwrap binary, a Docker engine address nobody answers. */
const NOTHING: SelectRuntimeOptions = { bwrapPath: '/nonexistent/bwrap', docker: { dockerHost: 'tcp://127.0.0.1:1' } }

afterAll(removeTempWorkspaces)

function setup(runtime: Runtime, sandboxOptions: SelectRuntimeOptions, level: CodeStrictness) {
  const sandbox = new SelectedRuntime('auto', { ...sandboxOptions, failClosed: true })
  const registry = new ToolRegistry([createCodeTools({ runtime, sandbox, strictness: () => level })])
  const tool = registry.get('run_code')!
  return {
    /** What the approval would show, then the run, as the tool-call runner does it. */
    async call(workspace: string, args: Record<string, unknown>): Promise<ToolOutput & { previewFields?: Record<string, string> }> {
      const checked = registry.checkArgs('run_code', args)
      if (!checked.ok) throw new Error(checked.error)
      let previewFields: Record<string, string> | undefined
      try {
        const preview = await tool.preview(checked.args, { workspace })
        previewFields = Object.fromEntries(preview.fields.map((field) => [field.label.key, field.display?.key ?? field.value]))
      } catch (error) {
        if (!(error instanceof ToolRefusal)) throw error
      }
      const output = await registry.execute('run_code', checked.args, {
        workspace,
        conversationId: `code-${level}`,
        runId: 'r',
        callId: 'k',
        signal: new AbortController().signal,
        onOutput: () => undefined
      })
      return { ...output, previewFields }
    },
    close: () => Promise.all([sandbox.close(), runtime.close?.()])
  }
}

describe('run_code at strict without any sandbox', () => {
  it('refuses before anything runs, with its message code, in both the preview and the run', async () => {
    const runtime = new SelectedRuntime('auto', NOTHING)
    const { call, close } = setup(runtime, NOTHING, 'strict')
    const workspace = tempWorkspace()
    const result = await call(workspace, { language: 'python', code: "open('made.txt', 'w').write('x')" })
    expect(runtime.name).toBe('native') // auto really fell back: the selection found no sandbox
    expect(result.previewFields).toBeUndefined() // the preview refused: nobody is asked
    expect(result.isError).toBe(true)
    expect(result.display?.key).toBe('result.strictNoSandbox')
    expect(String(result.display?.params?.reason)).toMatch(/bwrap|docker/i)
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false)
    await close()
  })

  it('at standard, says so in the preview and runs natively only after it', async () => {
    const runtime = new SelectedRuntime('auto', NOTHING)
    const { call, close } = setup(runtime, NOTHING, 'standard')
    const workspace = tempWorkspace()
    const result = await call(workspace, { language: 'python', code: "open('made.txt', 'w').write('x'); print('ok')" })
    expect(result.previewFields).toMatchObject({ runsIn: 'runsIn.native', network: 'network.open', note: 'note.noSandbox', workspace: 'workspace.writable' })
    expect(result.isError).toBe(false)
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('x')
    await close()
  })
})

interface Place {
  name: 'bwrap' | 'docker'
  ready(): Promise<boolean>
  /** The shell runtime, and how the sandbox for code is found when it is not one. */
  make(): { runtime: Runtime; sandboxOptions: SelectRuntimeOptions }
}

const PLACES: Place[] = [
  {
    // The shell runtime is native; run_code finds bwrap through the selection (Docker nowhere).
    name: 'bwrap',
    async ready() {
      const probe = await BwrapRuntime.probe()
      return process.platform === 'linux' && requireCapability('bwrap', probe.ok, `${probe.ok ? '' : probe.reason} apt-get install bubblewrap`)
    },
    make: () => ({ runtime: new NativeRuntime(), sandboxOptions: { docker: { dockerHost: 'tcp://127.0.0.1:1' } } })
  },
  {
    // The shell runtime is docker itself, with an image holding python3 and node.
    name: 'docker',
    async ready() {
      if (!(await dockerTestImageReady())) return false
      execFileSync('sh', [join(repoRoot, 'scripts/build-code-test-image.sh'), CODE_IMAGE], { stdio: 'ignore' })
      return true
    },
    make: () => ({ runtime: new DockerRuntime({ image: CODE_IMAGE }), sandboxOptions: NOTHING })
  }
]

const SNIPPETS = {
  python: {
    write: "open('written-py.txt', 'w').write('from python'); print('wrote')",
    read: "print(open('given.txt').read().strip())",
    connect: (port: number) =>
      `import socket\ntry:\n    socket.create_connection(('127.0.0.1', ${port}), timeout=3)\n    print('connected')\nexcept OSError as e:\n    print('refused', e)\n    raise SystemExit(3)`,
    spin: (marker: string) => `# ${marker}\nimport time\nwhile True:\n    time.sleep(0.05)`,
    flood: "import sys\nsys.stdout.write('y' * 11_000_000)"
  },
  javascript: {
    write: "require('fs').writeFileSync('written-js.txt', 'from javascript'); console.log('wrote')",
    read: "console.log(require('fs').readFileSync('given.txt', 'utf8').trim())",
    connect: (port: number) =>
      `const s = require('net').connect(${port}, '127.0.0.1', () => { console.log('connected'); process.exit(0) })\n` +
      "s.on('error', (e) => { console.log('refused', e.code); process.exit(3) })\nsetTimeout(() => { console.log('refused timeout'); process.exit(4) }, 3000)",
    spin: (marker: string) => `// ${marker}\nsetInterval(() => {}, 50)`,
    flood: "process.stdout.write('y'.repeat(11_000_000))"
  }
} as const

for (const place of PLACES) {
  const ready = await place.ready()
  describe.runIf(ready)(`run_code in ${place.name}`, () => {
    let server: Awaited<ReturnType<typeof startHttpServer>>
    const opened: Array<() => Promise<unknown>> = []
    const at = (level: CodeStrictness) => {
      const { runtime, sandboxOptions } = place.make()
      const made = setup(runtime, sandboxOptions, level)
      opened.push(made.close)
      return made.call
    }
    beforeAll(async () => {
      server = await startHttpServer()
    })
    afterAll(async () => {
      await server.close()
      await Promise.all(opened.map((close) => close()))
    })

    for (const language of ['python', 'javascript'] as const) {
      const snippet = SNIPPETS[language]

      it(`${language}: strict reads the workspace but cannot write it`, async () => {
        const workspace = tempWorkspace()
        writeFileSync(join(workspace, 'given.txt'), 'hello from the host\n')
        const call = at('strict')
        const read = await call(workspace, { language, code: snippet.read })
        expect(read.previewFields).toMatchObject({ runsIn: 'runsIn.sandbox', workspace: 'workspace.readOnly', network: 'network.none' })
        expect(read.ranIn).toBe(place.name)
        expect(read.forUser).toBe('hello from the host')
        const write = await call(workspace, { language, code: snippet.write })
        expect(write.isError).toBe(true)
        expect(write.forUser).toMatch(/read-only|EROFS/i)
        expect(existsSync(join(workspace, `written-${language === 'python' ? 'py' : 'js'}.txt`))).toBe(false)
      }, 60_000)

      it(`${language}: standard writes the workspace, in the sandbox`, async () => {
        const workspace = tempWorkspace()
        const result = await at('standard')(workspace, { language, code: snippet.write })
        expect(result.previewFields).toMatchObject({ runsIn: 'runsIn.sandbox', workspace: 'workspace.writable', network: 'network.none' })
        expect(result).toMatchObject({ isError: false, ranIn: place.name, forUser: 'wrote' })
        expect(readFileSync(join(workspace, `written-${language === 'python' ? 'py' : 'js'}.txt`), 'utf8')).toBe(`from ${language}`)
      }, 60_000)

      it(`${language}: the network is refused (natively the same code connects)`, async () => {
        const workspace = tempWorkspace()
        const native = await setup(new NativeRuntime(), NOTHING, 'trusted').call(workspace, { language, code: snippet.connect(server.port) })
        expect(native.forUser).toBe('connected')
        // trusted with the native shell runtime: the level's own choice, no "no sandbox" note.
        expect(native.previewFields).toMatchObject({ runsIn: 'runsIn.native', network: 'network.open' })
        expect(native.previewFields).not.toHaveProperty('note')
        const hits = server.hits()
        const sandboxed = await at('standard')(workspace, { language, code: snippet.connect(server.port) })
        expect(sandboxed.ranIn).toBe(place.name)
        expect(sandboxed.isError).toBe(true)
        expect(sandboxed.forUser).toMatch(/^refused/)
        expect(server.hits()).toBe(hits)
      }, 60_000)

      it(`${language}: a timeout stops it, and nothing of it is left running`, async () => {
        const marker = `deskclaw-spin-${language}-${Date.now()}`
        const started = Date.now()
        const result = await at('standard')(tempWorkspace(), { language, code: snippet.spin(marker), timeoutSec: 1 })
        expect(result.display).toEqual({ key: 'result.timedOut', params: { seconds: 1 } })
        expect(Date.now() - started).toBeLessThan(20_000)
        await sleep(300)
        expect(hostProcessesMatching(marker)).toEqual([])
      }, 60_000)
    }

    // Docker only: bwrap has no container to keep.
    if (place.name === 'docker')
      it('a read-only run gets its own container with a read-only mount; closing the conversation removes both', async () => {
      const runtime = new DockerRuntime({ image: CODE_IMAGE })
      const made = setup(runtime, NOTHING, 'strict')
      const workspace = tempWorkspace()
      writeFileSync(join(workspace, 'given.txt'), 'x\n')
      await made.call(workspace, { language: 'python', code: SNIPPETS.python.read })
      await runtime.exec({ command: 'true', cwd: workspace, conversationId: 'code-strict', timeoutMs: 10_000 })
      const readOnly = await runtime.containerId('code-strict', true)
      const writable = await runtime.containerId('code-strict', false)
      expect(readOnly && writable && readOnly !== writable).toBeTruthy()
      const mounts = async (id: string) => (await runtime.docker.getContainer(id).inspect()).Mounts.map((mount) => ({ path: mount.Destination, rw: mount.RW }))
      expect(await mounts(readOnly!)).toEqual([{ path: workspace, rw: false }])
      expect(await mounts(writable!)).toEqual([{ path: workspace, rw: true }])
      await runtime.closeConversation('code-strict')
      const left = await runtime.docker.listContainers({ all: true, filters: { id: [readOnly!, writable!] } })
      expect(left).toEqual([])
      await made.close()
    }, 60_000)

    it('output beyond the runtime limit is dropped and said so', async () => {
      const result = await at('standard')(tempWorkspace(), { language: 'python', code: SNIPPETS.python.flood })
      expect(result.isError).toBe(false)
      expect(result.forLlm).toContain('[output over the runtime limit was dropped]')
      expect(result.forUser!.length).toBeLessThan(11_000_000)
    }, 60_000)
  })
}
