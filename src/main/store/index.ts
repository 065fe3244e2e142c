/** The store module (docs/architecture.md). Other folders import from here only. */
export type { AuditEntry, AuditRecord, ChatSendEntry, ConversationStore, RecoveryReport } from './types'
export { SqliteConversationStore, DEFAULT_CONVERSATION_TITLE, UNTITLED_CONVERSATION_TITLES, type SqliteStoreOptions } from './sqlite-store'
export { LATEST_SCHEMA_VERSION, NewerSchemaError } from './migrations'
export { titleFromPrompt } from './projection'
export type { TurnRequest, TurnStart } from './branches'
export { GENESIS_HASH, type AuditChainReport } from './audit-chain'
export {
  DATABASE_FILE_NAME,
  readAuditLogFile,
  verifyAuditLogFile,
  verifyDatabaseFile,
  type DatabaseVerifyReport,
  type ReadOnlyOptions
} from './audit-file'
export { exportConversation, exportFileBase } from './export'
export { MemoryStore, type MemoryChange, type MemoryQuery, type MemorySource, type NewMemory } from './memories'
export { ScheduleStore, type NewScheduledTask, type ScheduledTaskChange } from './schedules'
