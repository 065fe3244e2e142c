import type { AuditLogRow } from '../../../src/main/store/statements'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach } from 'vitest'
import type { AgentEventOf, AgentEventType, RiskAssessment } from '../../../src/shared'
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

export const PREVIEW = { title: { key: 'Run a command' }, fields: [{ label: { key: 'Command' }, value: 'ls -la', code: true }] }

export const ASSESSMENT: RiskAssessment = {
  verdict: 'ask',
  findings: [
    {
      rule: 'shell.unknown-program',
      message: 'runs a program that is not known to be safe',
      verdict: 'ask',
      span: { arg: 'command', start: 0, end: 2 }
    }
  ],
  alwaysRule: { tool: 'shell', match: ['ls', '-la'], decision: 'allow' }
}

export const BINDING_HASH = 'b'.repeat(64)

/** The body of an approval_requested event for `args`, with the shared preview and assessment. */
export function approvalBody(approvalId: string, callId: string, args: { command: string }, expiresAt: number) {
  return {
    approvalId,
    callId,
    tool: 'shell',
    args,
    reason: 'runs a command',
    preview: { title: { key: 'Run a command' }, fields: [{ label: { key: 'Command' }, value: args.command, code: true }] },
    assessment: ASSESSMENT,
    bindingHash: BINDING_HASH,
    expiresAt
  }
}

/** Every audit row of a file, read over a separate read-only connection. */
export function readAuditRows(dbPath: string): AuditRow[] {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare('SELECT * FROM audit_log ORDER BY seq').all() as AuditRow[]
  } finally {
    db.close()
  }
}

export interface AuditRow extends AuditLogRow {
  prev_hash: string | null
  hash: string | null
}
