import { type KeyboardEvent, useEffect, useId, useRef } from 'react'
import { useT } from '../i18n'
import { FolderIcon } from '../features/common'
import { usePaletteStore } from './store'


/** The folder's own name and the folder it is in ("/home/ann/src/app" → "app", "/home/ann/src"). */
export function splitPath(path: string): { name: string; parent: string } {
  const trimmed = path.length > 1 ? path.replace(/[\\/]+$/, '') : path
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'))
  if (cut <= 0) return { name: trimmed || path, parent: cut === 0 ? trimmed.slice(0, 1) : '' }
  // "C:\" keeps its backslash: the parent of "C:\work" is "C:\".
  const parent = trimmed.slice(0, cut)
  return { name: trimmed.slice(cut + 1), parent: /^[A-Za-z]:$/.test(parent) ? `${parent}\\` : parent }
}

/**
 * The recent workspaces as a radio group: Tab from the task input lands on the chosen one, the
 * arrows (and Home / End) move the choice, Enter runs the task. The most recent is chosen first.
 */
export function WorkspacePicker({ onSubmit, disabled }: { onSubmit(): void; disabled: boolean }) {
  const t = useT()
  const labelId = useId()
  const workspaces = usePaletteStore((s) => s.workspaces)
  const selected = usePaletteStore((s) => s.selected)
  const select = usePaletteStore((s) => s.select)
  const move = usePaletteStore((s) => s.move)
  const group = useRef<HTMLDivElement>(null)

  // The focus follows the choice while it is inside the group (roving tabindex).
  useEffect(() => {
    const el = group.current
    if (!el || !el.contains(document.activeElement)) return
    const option = el.querySelectorAll<HTMLElement>('[role="radio"]')[selected]
    option?.focus()
    option?.scrollIntoView({ block: 'nearest' })
  }, [selected])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowRight':
        event.preventDefault()
        move(1)
        break
      case 'ArrowUp':
      case 'ArrowLeft':
        event.preventDefault()
        move(-1)
        break
      case 'Home':
        event.preventDefault()
        select(0)
        break
      case 'End':
        event.preventDefault()
        select(workspaces.length - 1)
        break
      case 'Enter':
      case ' ':
        event.preventDefault()
        if (event.key === 'Enter' && !event.repeat) onSubmit()
        break
    }
  }

  return (
    <section className="palette-workspace-section">
      <div className="palette-section-label">
        <span id={labelId}>{t('palette.workspace')}</span>
        {workspaces.length > 1 && <span className="palette-section-hint">{t('palette.workspaceHint')}</span>}
      </div>
      {workspaces.length === 0 ? (
        <div className="palette-workspace-empty">{t('palette.noWorkspaces')}</div>
      ) : (
        <div
          ref={group}
          role="radiogroup"
          aria-labelledby={labelId}
          aria-disabled={disabled || undefined}
          className="palette-workspaces"
          data-testid="palette-workspaces"
          onKeyDown={onKeyDown}
        >
          {workspaces.map((path, index) => {
            const { name, parent } = splitPath(path)
            const checked = index === selected
            return (
              <div
                key={path}
                role="radio"
                aria-checked={checked}
                tabIndex={checked ? 0 : -1}
                className={`palette-workspace${checked ? ' selected' : ''}`}
                data-testid="palette-workspace"
                data-path={path}
                title={path}
                onClick={() => select(index)}
              >
                <FolderIcon />
                <span className="palette-workspace-name">{name}</span>
                <span className="palette-workspace-parent">{parent}</span>
              </div>
            )
          })}
        </div>
      )}
    </section>
  )
}
