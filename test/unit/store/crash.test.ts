import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { bundleFixture, runChildUntilReadyThenKill } from '../../helpers/child-process'
import type { CrashChildReady } from '../../fixtures/store-crash-child'
import { SqliteConversationStore } from '../../../src/main/store'
import { tempDbPath, tempDir } from './helpers'

const repoRoot = path.resolve(__dirname, '../../..')
const READY_AFTER_DELTAS = 500

/** The child fixture as CommonJS; better-sqlite3 stays external, so it loads the addon the tests use. */
function bundleChild(): Promise<string> {
  return bundleFixture(path.join(repoRoot, 'test/fixtures/store-crash-child.ts'), tempDir(), ['better-sqlite3'])
}

/** Starts the child, waits for its ready line, SIGKILLs it and resolves once it is gone. */

describe('crash safety', () => {
  it('keeps every committed delta when the process is SIGKILLed mid-stream', async () => {
    const dbPath = tempDbPath()
    const ready = await runChildUntilReadyThenKill<CrashChildReady>(await bundleChild(), [dbPath, String(READY_AFTER_DELTAS)], 'crash child')

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
      // The answer's row may lag its deltas (written at most every few hundred ms); recovery gives it all of them.
      const logged = store.listEvents(ready.runId).flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []))
      expect(recovered?.messages.find((message) => message.id === ready.messageId)?.content).toBe(logged.join(''))
      expect(logged.length).toBeGreaterThanOrEqual(ready.deltasCommitted)
      expect(recovered?.toolCalls.map((call) => call.status)).toEqual(['interrupted', 'interrupted'])
      expect(recovered?.toolCalls[0]?.output).toBe('y\n')
      expect(store.pendingApprovals()).toEqual([])
    } finally {
      store.close()
    }
  })
})
