/**
 * "‹ 2 / 2 ›": pages through the versions of an answer (regenerated) or of a question (edited and
 * resent). docs/architecture.md, "Message versions".
 */
import type { Versions } from '../../../../shared/branches'
import { useT } from '../../i18n'

export interface VersionPagerProps {
  kind: 'answer' | 'question'
  versions: Versions
  /** While a run is going, the branch shown stays put. */
  disabled?: boolean
  onChoose(id: string): void
}

export function VersionPager({ kind, versions, disabled, onChoose }: VersionPagerProps) {
  const t = useT()
  const count = versions.ids.length
  if (count < 2) return null
  const { index } = versions
  const go = (to: number) => {
    const id = versions.ids[to]
    if (id !== undefined) onChoose(id)
  }
  return (
    <div
      className="version-pager"
      role="group"
      aria-label={t(kind === 'answer' ? 'versions.answer' : 'versions.question')}
      data-testid="version-pager"
      data-kind={kind}
    >
      <button
        type="button"
        className="message-action"
        data-testid="version-previous"
        aria-label={t('versions.previous')}
        title={t('versions.previous')}
        disabled={disabled || index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>
      <span className="version-count" data-testid="version-count" aria-hidden="true">
        {index + 1} / {count}
      </span>
      <span className="sr-only" aria-live="polite">
        {t('versions.position', { n: index + 1, count })}
      </span>
      <button
        type="button"
        className="message-action"
        data-testid="version-next"
        aria-label={t('versions.next')}
        title={t('versions.next')}
        disabled={disabled || index === count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </div>
  )
}
