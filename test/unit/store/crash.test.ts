import { spawn } from 'node:child_process'
import path from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import type { CrashChildReady } from '../../fixtures/store-crash-child'
import { SqliteConversationStore } from '../../../src/main/store'
import { tempDbPath, tempDir } from './helpers'

const repoRoot = path.resolve(__dirname, '../../..')
const READY_AFTER_DELTAS = 500

/**
 * Node 20 cannot run TypeScript and the repo has no tsx, so the child is bundled with esbuild
 * (already installed as Vite's bundler) into plain CommonJS. better-sqlite3 stays external and is
 * found through NODE_PATH, so the child loads the same native addon the tests use.
 */
async function bundleChild(): Promise<string> {
  const outfile = path.join(tempDir(), 'store-crash-child.cjs')
  await build({
    entryPoints: [path.join(repoRoot, 'test/fixtures/store-crash-child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['better-sqlite3'],
    logLevel: 'silent'
  })
  return outfile
}

/** Starts the child, waits for its ready line, SIGKILLs it and resolves once it is gone. */
function runChildUntilReadyThenKill(childFile: string, dbPath: string): Promise<CrashChildReady> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childFile, dbPath, String(READY_AFTER_DELTAS)], {
      env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    let ready: CrashChildReady | undefined
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const newline = stdout.indexOf('\n')
      if (ready || newline < 0) return
      ready = JSON.parse(stdout.slice(0, newline)) as CrashChildReady
      child.kill('SIGKILL')
    })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (ready && signal === 'SIGKILL') resolve(ready)
      else reject(new Error(`crash child ended before it was killed (code ${code}, signal ${signal}): ${stderr}`))
    })
  })
}

describe('crash safety', () => {
  it('keeps every committed delta when the process is SIGKILLed mid-stream', async () => {
    const dbPath = tempDbPath()
    const ready = await runChildUntilReadyThenKill(await bundleChild(), dbPath)

    const store = SqliteConversationStore.open(dbPath)
    try {
      const detail = store.getConversation(ready.conversationId)
      const answer = detail?.messages.find((message) => message.id === ready.messageId)?.content ?? ''
      const committedBeforeReady = Array.from({ length: ready.deltasCommitted }, (_, i) => `d${i};`).join('')
      expect(answer.startsWith(committedBeforeReady)).toBe(true)
      // Whatever was written after "ready" is whole deltas, in order: no torn or reordered write.
      const deltaNumbers = [...answer.matchAll(/d(\d+);/g)].map((match) => Number(match[1]))
      expect(deltaNumbers.join(';') + ';').toBe(answer.replace(/d/g, ''))
      expect(deltaNumbers).toEqual(deltaNumbers.map((_, i) => i))
      expect(detail?.runs[0]?.status).toBe('running')

      expect(store.recoverInterrupted()).toEqual({ runs: 1, toolCalls: 2, approvals: 1 })
      const recovered = store.getConversation(ready.conversationId)
      expect(recovered?.runs[0]?.status).toBe('interrupted')
      expect(recovered?.toolCalls.map((call) => call.status)).toEqual(['interrupted', 'interrupted'])
      expect(recovered?.toolCalls[0]?.output).toBe('y\n')
      expect(store.pendingApprovals()).toEqual([])
    } finally {
      store.close()
    }
  })
})
