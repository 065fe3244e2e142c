/** `deskclaw audit verify|list`: the audit log, read straight from the database file (docs/risk.md, docs/architecture.md). */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { summarizeArgs } from '../../shared'
import {
  DATABASE_FILE_NAME,
  readAuditLogFile,
  verifyDatabaseFile,
  type AuditChainReport,
  type AuditRecord,
  type DatabaseVerifyReport
} from '../store'
import { defaultDataDir } from '../app'
import { parseAuditArgs, UsageError, type AuditArgs } from './args'
import { EXIT, MAIN_HELP } from './help'

export interface AuditOutput {
  write(text: string): unknown
}

/** The same data folder `run` and `web` use. */
export function auditMain(argv: string[]): number {
  const args = parseAuditArgs(argv)
  return auditCommand(args, args.dataDir ?? defaultDataDir())
}

/**
 * Runs one audit subcommand against `<dataDir>/deskclaw.db`. The file is opened read-only and
 * never migrated, so checking a log cannot change it. Returns the exit code.
 */
export function auditCommand(args: AuditArgs, dataDir: string, out: AuditOutput = process.stdout): number {
  if (args.help || args.action === undefined) {
    out.write(MAIN_HELP)
    return EXIT.done
  }
  const dbPath = join(dataDir, DATABASE_FILE_NAME)
  if (!existsSync(dbPath)) {
    throw new UsageError(`no DeskClaw database at ${dbPath} (pass --data-dir DIR or set DESKCLAW_HOME)`)
  }
  if (args.action === 'verify') {
    const report = verifyDatabaseFile(dbPath)
    out.write(args.json ? `${JSON.stringify(verifyJson(report, dbPath))}\n` : `${describeVerify(report)}\n`)
    if (!report.integrity.ok) return EXIT.corrupt
    return report.ok ? EXIT.done : EXIT.tampered
  }
  const entries = readAuditLogFile(dbPath, args.limit)
  for (const entry of entries) {
    out.write(args.json ? `${JSON.stringify({ ...entry, summary: summarizeAuditEntry(entry) })}\n` : `${formatEntry(entry)}\n`)
  }
  if (!args.json && entries.length === 0) out.write('the audit log is empty\n')
  return EXIT.done
}

/** The chain's fields at the top (as before quick_check was added), the file's check beside them. */
function verifyJson(report: DatabaseVerifyReport, database: string): Record<string, unknown> {
  const chain = 'unreadable' in report.chain ? { rows: 0, unreadable: report.chain.unreadable } : report.chain
  return {
    ...chain,
    ok: report.ok,
    quickCheck: report.integrity,
    ...(report.readFromCopy ? { readFromCopy: true } : {}),
    database
  }
}

/** A damaged file first (quick_check's own lines), then the chain's line. */
export function describeVerify(report: DatabaseVerifyReport): string {
  const lines: string[] = []
  if (!report.integrity.ok) {
    lines.push(`database DAMAGED: quick_check found ${report.integrity.lines.length} problem(s):`)
    for (const line of report.integrity.lines) lines.push(`  ${line}`)
  }
  if ('unreadable' in report.chain) lines.push(`audit log UNREADABLE: ${report.chain.unreadable}`)
  else if (report.ok) lines.push(`${describeReport(report.chain)}; database file OK (quick_check)`)
  else lines.push(describeReport(report.chain))
  if (report.readFromCopy) lines.push('(read-only medium: checked a copy in memory; entries only in a -wal file beside it are not seen)')
  return lines.join('\n')
}

export function describeReport(report: AuditChainReport): string {
  return report.ok
    ? `audit log OK: ${report.rows} entries, chain intact`
    : `audit log TAMPERED at entry ${report.brokenAt}: ${report.reason}`
}

function formatEntry(entry: AuditRecord): string {
  const at = new Date(entry.at).toISOString()
  return `#${entry.seq}  ${at}  ${entry.kind.padEnd(19)} ${entry.actor.padEnd(18)} ${summarizeAuditEntry(entry)}`
}

/** One line per entry kind the store writes; anything else shows its data as compact JSON. */
export function summarizeAuditEntry(entry: Pick<AuditRecord, 'kind' | 'data'>): string {
  const data = isRecord(entry.data) ? entry.data : {}
  const call = (): string => [data.tool, summarizeArgs(data.args, 80)].filter(Boolean).join(' ')
  switch (entry.kind) {
    case 'risk_decision':
      return `${call()}: ${String(data.action)} (verdict ${String(data.verdict)}${firstFinding(data.findings)})`
    case 'approval_requested':
      return `${call()}: asked the user (verdict ${String(data.verdict)}${firstFinding(data.findings)})`
    case 'approval':
      return `${call()}: ${String(data.answer)}${typeof data.reason === 'string' ? ` — ${data.reason}` : ''}`
    case 'tool_call': {
      const runtime = typeof data.runtime === 'string' ? ` on ${data.runtime}` : ''
      return `${call()}: ${String(data.status)} in ${String(data.durationMs)} ms${runtime}`
    }
    case 'run': {
      const error = isRecord(data.error) && typeof data.error.message === 'string' ? `: ${data.error.message}` : ''
      const stop = typeof data.stopReason === 'string' && data.stopReason !== data.status ? ` (${data.stopReason})` : ''
      return `run ${String(data.status)}${stop}${error}`
    }
    case 'approval_rule_saved': {
      const rule = isRecord(data.rule) ? data.rule : {}
      const match = Array.isArray(rule.match) ? rule.match.join(' ') : ''
      return `rule saved: ${String(rule.decision)} ${String(rule.tool)} ${match}`
    }
    case 'recovery':
      return `after a crash: ${String(data.runs)} run(s), ${String(data.toolCalls)} tool call(s) interrupted, ${String(data.approvals)} approval(s) denied`
    default: {
      const json = JSON.stringify(entry.data) ?? 'null'
      return json.length > 120 ? `${json.slice(0, 119)}…` : json
    }
  }
}

function firstFinding(findings: unknown): string {
  if (!Array.isArray(findings) || findings.length === 0) return ''
  const [first] = findings as unknown[]
  const rule = isRecord(first) && typeof first.rule === 'string' ? first.rule : '?'
  return findings.length > 1 ? `: ${rule} +${findings.length - 1}` : `: ${rule}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
