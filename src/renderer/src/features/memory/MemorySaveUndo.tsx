/**
 * Under a tool call that saved a memory (the memory's source names the call, so no tool is known by
 * name here): "Undo" deletes the memory again (docs/tools.md, "Memory").
 */
import { useT } from '../../i18n'
import { useNoticesStore } from '../../stores'
import { useMemoriesStore } from '../../stores/memories'
import './memory.css'

export function MemorySaveUndo({ callId }: { callId: string }) {
  const t = useT()
  const saved = useMemoriesStore((s) => s.saves[callId])
  const undone = useMemoriesStore((s) => s.undone[callId])
  const undoSave = useMemoriesStore((s) => s.undoSave)
  if (undone) {
    return (
      <div className="memory-undo" data-testid="memory-undone">
        {t('memory.undone')}
      </div>
    )
  }
  if (!saved) return null
  return (
    <div className="memory-undo">
      <button
        type="button"
        className="btn btn-small"
        data-testid="memory-undo"
        title={t('memory.undoTitle')}
        onClick={() =>
          void undoSave(callId).then((outcome) => {
            if (!outcome.ok) useNoticesStore.getState().push(t.error(outcome.error))
          })
        }
      >
        {t('memory.undo')}
      </button>
    </div>
  )
}
