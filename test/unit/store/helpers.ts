import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import type { AgentEventOf, AgentEventType } from '../../../src/shared'
import { SqliteConversationStore } from '../../../src/main/store'

const openedStores: SqliteConversationStore[] = []
const tempDirs: string[] = []

afterEach(() => {
  for (const store of openedStores.splice(0)) store.close()
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A fresh folder under the OS temp dir, removed after the test. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-store-'))
  tempDirs.push(dir)
  return dir
}

/** A real SQLite file in a fresh temp folder (nested, to prove open creates parent folders). */
export function tempDbPath(): string {
  return path.join(tempDir(), 'nested', 'deskclaw.db')
}

/** Opens a store that is closed after the test. */
export function openStore(dbPath = tempDbPath()): SqliteConversationStore {
  const store = SqliteConversationStore.open(dbPath)
  openedStores.push(store)
  return store
}

type EventBody<T extends AgentEventType> = Omit<AgentEventOf<T>, 'type' | 'runId' | 'conversationId' | 'at'>

/** Builds events for one run with a clock that ticks 1 ms per event, so ordering by time is stable. */
export function runEvents(conversationId: string, runId: string, startAt = Date.now()) {
  let at = startAt
  // TS cannot relate a generic Omit<> back to its union member, hence the cast through unknown.
  return <T extends AgentEventType>(type: T, body: EventBody<T>): AgentEventOf<T> =>
    ({ type, runId, conversationId, at: at++, ...body }) as unknown as AgentEventOf<T>
}

export const PREVIEW = { title: 'Run a command', fields: [{ label: 'Command', value: 'ls -la', code: true }] }
