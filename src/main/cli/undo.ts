/**
 * `deskclaw undo RUN|CALL [--dry-run]` and `deskclaw undo --redo UNDO` (docs/cli.md, docs/checkpoints.md):
 * takes back what a run or one tool call changed in its workspace, after printing exactly what will
 * change. Files changed since the run are conflicts: kept unless `--take-checkpoint` says otherwise.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ChangedFile } from '../../shared'
import { defaultDataDir, resolveSettings } from '../app'
import { CheckpointService, UndoService, type UndoPreview, type UndoTarget } from '../checkpoints'
import { DATABASE_FILE_NAME, SqliteConversationStore, type ConversationStore } from '../store'
import { EXIT } from './help'
import { UsageError } from './args'

export const UNDO_HELP = `deskclaw undo — take back what a run or a tool call changed in the workspace

usage:
  deskclaw undo RUN_ID [--since] [--dry-run] [--take-checkpoint] [--json] [--data-dir DIR]
  deskclaw undo CALL_ID [--dry-run] [--take-checkpoint] [--json] [--data-dir DIR]
  deskclaw undo --redo UNDO_ID [--dry-run] [--json] [--data-dir DIR]

  --since            also every later run of the conversation ("restore to before this message")
  --dry-run          print what would change and change nothing
  --take-checkpoint  overwrite files changed after the run (default: keep them)
  --redo UNDO_ID     take an undo back (its id is printed when it is done)
  --json             one JSON object instead of lines

Undo covers files in the workspace only: not commands' effects elsewhere, messages sent or devices written.
`

export interface UndoArgs {
  id?: string
  redo?: string
  since: boolean
  dryRun: boolean
  takeCheckpoint: boolean
  json: boolean
  help: boolean
  dataDir?: string
}

export function parseUndoArgs(argv: string[]): UndoArgs {
  const args: UndoArgs = { since: false, dryRun: false, takeCheckpoint: false, json: false, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') args.help = true
    else if (arg === '--since') args.since = true
    else if (arg === '--dry-run' || arg === '-n') args.dryRun = true
    else if (arg === '--take-checkpoint') args.takeCheckpoint = true
    else if (arg === '--json') args.json = true
    else if (arg === '--redo' || arg === '--data-dir') {
      const value = argv[++i]
      if (!value || value.startsWith('-')) throw new UsageError(`${arg} needs a value`)
      if (arg === '--redo') args.redo = value
      else args.dataDir = value
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option "${arg}" for undo (try: deskclaw undo --help)`)
    else if (args.id === undefined) args.id = arg
    else throw new UsageError(`undo takes one id, got "${args.id}" and "${arg}"`)
  }
  if (!args.help && (args.id === undefined) === (args.redo === undefined)) {
    throw new UsageError('give a run or call id, or --redo UNDO_ID (try: deskclaw undo --help)')
  }
  if (args.redo !== undefined && !/^[0-9a-f]{40}$/.test(args.redo)) throw new UsageError(`"${args.redo}" is not an undo id (40 hexadecimal digits)`)
  return args
}

export async function undoMain(argv: string[], out: { write(text: string): unknown } = process.stdout): Promise<number> {
  const args = parseUndoArgs(argv)
  if (args.help) {
    out.write(UNDO_HELP)
    return EXIT.done
  }
  const dataDir = args.dataDir ?? defaultDataDir()
  const dbPath = join(dataDir, DATABASE_FILE_NAME)
  if (!existsSync(dbPath)) throw new UsageError(`no DeskClaw database at ${dbPath} (pass --data-dir DIR or set DESKCLAW_HOME)`)
  const store = SqliteConversationStore.open(dbPath)
  try {
    const settings = resolveSettings(store.getSettings(), {})
    const undo = new UndoService({
      store,
      checkpoints: new CheckpointService(dataDir, () => ({ maxFileBytes: settings.checkpoints.maxFileMB * 1024 * 1024 })),
      workspaceOf: (id) => store.getConversation(id)?.conversation.workspace ?? settings.workspace
    })
    const preview = await undo.preview(targetOf(args, store))
    if (args.dryRun) {
      out.write(args.json ? `${JSON.stringify({ dryRun: true, ...withoutPlan(preview) })}\n` : describePreview(preview, args))
      return EXIT.done
    }
    const choices = Object.fromEntries(preview.conflicts.map((conflict) => [conflict.path, args.takeCheckpoint ? 'take-checkpoint' : 'keep-theirs'] as const))
    const outcome = await undo.apply(preview.planId, choices)
    if (args.json) out.write(`${JSON.stringify({ ...withoutPlan(preview), ...outcome })}\n`)
    else {
      out.write(describePreview(preview, args))
      out.write(`undone: ${outcome.restored.length} file(s) restored${outcome.kept.length > 0 ? `, ${outcome.kept.length} kept as they are now (${outcome.kept.join(', ')})` : ''}\n`)
      for (const failure of outcome.failed) out.write(`  not restored: ${failure.path} (${failure.reason})\n`)
      out.write(`redo with: deskclaw undo --redo ${outcome.undoId}\n`)
    }
    return outcome.failed.length > 0 ? EXIT.failed : EXIT.done
  } finally {
    store.close()
  }
}

/** A run id names a run; any other id is looked up as a tool call. */
function targetOf(args: UndoArgs, store: ConversationStore): UndoTarget {
  if (args.redo) return { kind: 'redo', undoId: args.redo }
  const id = args.id!
  for (const summary of store.listConversations()) {
    const detail = store.getConversation(summary.id)
    if (!detail) continue
    if (detail.runs.some((run) => run.id === id)) return args.since ? { kind: 'since-run', conversationId: summary.id, runId: id } : { kind: 'run', runId: id }
    const call = detail.toolCalls.find((record) => record.id === id)
    if (call) {
      if (args.since) throw new UsageError('--since goes with a run id, not a call id')
      return { kind: 'call', runId: call.runId, callId: call.id }
    }
  }
  throw new UsageError(`no run or tool call "${id}" in this data folder`)
}

function withoutPlan(preview: UndoPreview): Omit<UndoPreview, 'planId'> {
  const { planId: _planId, ...rest } = preview
  return rest
}

function describePreview(preview: UndoPreview, args: UndoArgs): string {
  const lines = [`${args.dryRun ? 'would change' : 'changing'} ${preview.files.length} file(s) in ${preview.workspace}:`]
  for (const file of preview.files) lines.push(`  ${describeFile(file)}`)
  if (preview.conflicts.length > 0) {
    lines.push(`${preview.conflicts.length} file(s) changed after the run: ${args.takeCheckpoint ? 'the checkpoint wins (--take-checkpoint)' : 'kept as they are now (--take-checkpoint to overwrite)'}:`)
    for (const conflict of preview.conflicts) lines.push(`  ${conflict.path}`)
  }
  if (preview.notRecorded.length > 0) lines.push(`not recorded, cannot be restored: ${preview.notRecorded.join(', ')}`)
  return `${lines.join('\n')}\n`
}

/** "restore a.txt (+1 −1)", "delete created.txt", "recreate gone.txt". */
function describeFile(file: ChangedFile): string {
  const what = file.binary ? `binary, ${file.afterBytes} bytes` : `+${file.added} −${file.removed}`
  if (file.kind === 'deleted') return `delete ${file.path}`
  if (file.kind === 'added') return `recreate ${file.path} (${what})`
  return `restore ${file.path} (${what})`
}
