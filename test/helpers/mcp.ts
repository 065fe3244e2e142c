import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'

const repoRoot = path.resolve(__dirname, '../..')

/** server-everything's entry in node_modules (a devDependency): run with this Node, no npx, no registry. */
export const EVERYTHING_SERVER = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')

/** The start of server-everything's MCP_TINY_IMAGE (a PNG, base64). */
export const TINY_PNG_PREFIX = 'iVBORw0KGgoAAAANSUhEUgAAABQAAAAU'

export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface EverythingHttp {
  /** http://127.0.0.1:PORT/mcp (streamable HTTP) or …/sse (SSE). */
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** server-everything serving `streamableHttp` (or `sse`) on a free loopback port; resolves once it listens. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<EverythingHttp> {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${log}`)), 15_000)
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (/listening on port|running on port/i.test(log)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server-everything ${mode} exited (${code}): ${log}`))
    })
  })
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      })
  }
}
