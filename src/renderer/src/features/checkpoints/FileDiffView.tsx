/**
 * One file's two sides (checkpoints.fileDiff): text as a line diff with syntax colours, side by side
 * or unified; images side by side; binaries and files too large to show by their sizes.
 */
import { useMemo } from 'react'
import type { FileSide } from '../../../../shared/bridge/checkpoints'
import type { ChangedFile } from '../../../../shared/checkpoints'
import { useT } from '../../i18n'
import { highlightLine, languageOf } from './highlight'
import { type DiffLine, foldUnchanged, lineDiff, splitRows } from './line-diff'
import type { DiffViewMode } from './view-mode'

export interface FileDiffViewProps {
  file: ChangedFile
  sides: { before: FileSide; after: FileSide }
  mode: DiffViewMode
}

export function FileDiffView({ file, sides, mode }: FileDiffViewProps) {
  const t = useT()
  const { before, after } = sides
  if (before.image || after.image) {
    return (
      <div className="diff-images" data-testid="diff-images">
        {(['before', 'after'] as const).map((side) => {
          const value = sides[side]
          return (
            <figure key={side} className="diff-image" data-side={side}>
              <figcaption>
                {t(`checkpoints.${side}`)} · {value.exists ? t.fileSize(value.bytes) : t('checkpoints.noFile')}
              </figcaption>
              {value.image ? <img alt={`${file.path} (${t(`checkpoints.${side}`)})`} src={`data:${value.image.mediaType};base64,${value.image.base64}`} /> : null}
            </figure>
          )
        })}
      </div>
    )
  }
  const textual = (!before.exists || before.text !== undefined) && (!after.exists || after.text !== undefined)
  if (!textual) {
    const sizes = { before: before.exists ? t.fileSize(before.bytes) : t('checkpoints.noFile'), after: after.exists ? t.fileSize(after.bytes) : t('checkpoints.noFile') }
    return (
      <div className="diff-sizes" data-testid="diff-sizes">
        {file.binary ? t('checkpoints.binary', sizes) : t('checkpoints.tooLarge', sizes)}
      </div>
    )
  }
  return <TextDiff path={file.path} before={before.text ?? ''} after={after.text ?? ''} mode={mode} />
}

function TextDiff({ path, before, after, mode }: { path: string; before: string; after: string; mode: DiffViewMode }) {
  const t = useT()
  const language = languageOf(path)
  const rows = useMemo(() => foldUnchanged(lineDiff(before, after)), [before, after])
  if (before === after) return <div className="diff-sizes">{t('checkpoints.sameText')}</div>
  const gap = (count: number, key: number, columns: number) => (
    <tr key={key} className="diff-gap">
      <td colSpan={columns}>{t.count('checkpoints.unchangedLines', count)}</td>
    </tr>
  )
  if (mode === 'unified') {
    return (
      <table className="diff-table diff-unified" data-testid="diff-text" data-mode="unified">
        <tbody>
          {rows.map((row, i) =>
            row.kind === 'gap' ? (
              gap(row.count, i, 4)
            ) : (
              <tr key={i} className={`diff-line diff-${row.kind}`} data-kind={row.kind}>
                <td className="diff-no">{row.oldNo ?? ''}</td>
                <td className="diff-no">{row.newNo ?? ''}</td>
                <td className="diff-sign">{row.kind === 'add' ? '+' : row.kind === 'del' ? '−' : ' '}</td>
                <Code line={row} language={language} />
              </tr>
            )
          )}
        </tbody>
      </table>
    )
  }
  return (
    <table className="diff-table diff-split" data-testid="diff-text" data-mode="split">
      <tbody>
        {splitRows(rows).map((row, i) =>
          row.kind === 'gap' ? (
            gap(row.count, i, 4)
          ) : (
            <tr key={i} className="diff-line">
              <td className="diff-no">{row.left?.oldNo ?? ''}</td>
              {row.left ? <Code line={row.left} language={language} side="left" /> : <td className="diff-code diff-empty" />}
              <td className="diff-no">{row.right?.newNo ?? ''}</td>
              {row.right ? <Code line={row.right} language={language} side="right" /> : <td className="diff-code diff-empty" />}
            </tr>
          )
        )}
      </tbody>
    </table>
  )
}

function Code({ line, language, side }: { line: DiffLine; language: string | undefined; side?: 'left' | 'right' }) {
  const html = useMemo(() => highlightLine(line.text, language), [line.text, language])
  return (
    <td className={`diff-code hljs diff-${line.kind}`} data-kind={line.kind} data-side={side}>
      <span dangerouslySetInnerHTML={{ __html: html }} />
    </td>
  )
}
