import { spawn } from 'node:child_process'
import path from 'node:path'

const repoRoot = path.resolve(__dirname, '../..')

/**
 * Runs a bundled fixture under Node, waits for the first stdout line (JSON: the child says what it
 * has done so far), then SIGKILLs it — a crash at a moment the test chose. Resolves with that line.
 */
export function runChildUntilReadyThenKill<T>(childFile: string, args: string[], what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childFile, ...args], {
      env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    let ready: T | undefined
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const newline = stdout.indexOf('\n')
      if (ready || newline < 0) return
      ready = JSON.parse(stdout.slice(0, newline)) as T
      child.kill('SIGKILL')
    })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (ready && signal === 'SIGKILL') resolve(ready)
      else reject(new Error(`${what} ended before it was killed (code ${code}, signal ${signal}): ${stderr}`))
    })
  })
}

/**
 * Node 20 cannot run TypeScript and the repo has no tsx, so a child fixture is bundled with
 * esbuild (already installed as Vite's bundler) into plain CommonJS in `outDir`. Native or
 * heavy modules stay external and are found through NODE_PATH (see runChildUntilReadyThenKill).
 */
export async function bundleFixture(entry: string, outDir: string, external: string[] = []): Promise<string> {
  const { build } = await import('esbuild')
  const outfile = path.join(outDir, `${path.basename(entry, '.ts')}.cjs`)
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external, logLevel: 'silent' })
  return outfile
}
