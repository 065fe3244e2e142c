/** The changed files of a diff: kind, path, +/− lines, or sizes for a binary. */
import type { ChangedFile } from '../../../../shared/checkpoints'
import { useT } from '../../i18n'

export function FileList({ files, selected, onSelect }: { files: readonly ChangedFile[]; selected: string | undefined; onSelect(path: string): void }) {
  const t = useT()
  return (
    <ul className="diff-file-list" aria-label={t('checkpoints.fileList')} data-testid="diff-file-list">
      {files.map((file) => (
        <li key={file.path}>
          <button
            type="button"
            className={`diff-file-item${file.path === selected ? ' is-selected' : ''}`}
            aria-current={file.path === selected ? 'true' : undefined}
            data-testid="diff-file-item"
            data-path={file.path}
            data-kind={file.kind}
            onClick={() => onSelect(file.path)}
          >
            <span className={`diff-kind kind-${file.kind}`}>{t(`checkpoints.kind.${file.kind}`)}</span>
            <span className="diff-file-name" title={file.path}>
              {file.path}
            </span>
            <FileCounts file={file} />
          </button>
        </li>
      ))}
    </ul>
  )
}

export function FileCounts({ file }: { file: ChangedFile }) {
  const t = useT()
  if (file.binary) {
    return <span className="diff-counts">{file.kind === 'deleted' ? t.fileSize(file.beforeBytes) : t.fileSize(file.afterBytes)}</span>
  }
  return (
    <span className="diff-counts">
      <span className="diff-added">+{file.added}</span> <span className="diff-removed">−{file.removed}</span>
    </span>
  )
}
