/** A small line in the timeline where the context was compacted: the messages above are still all here, the model got a summary. */
import type { CompactionView } from '../../stores'
import { useT } from '../../i18n'
import { compactionLine } from './context-text'

export function CompactionMarker({ compaction }: { compaction: CompactionView }) {
  const t = useT()
  return (
    <div className="compaction-marker" data-testid="compaction-marker" role="note" title={t('context.compacted.hint')}>
      <span className="compaction-marker-line" aria-hidden="true" />
      <span>{compactionLine(t, compaction)}</span>
      <span className="compaction-marker-line" aria-hidden="true" />
    </div>
  )
}
