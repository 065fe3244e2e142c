import { type KeyboardEvent, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'

export interface MenuItem {
  key: string
  label: string
  icon?: ReactNode
  danger?: boolean
  testId?: string
  onSelect(): void
}

/**
 * A small menu under its button (rendered in a portal, fixed, so the sidebar's scrolling list
 * cannot clip it). Focus moves to the first item; arrows, Home and End move; Enter or Space
 * chooses; Escape closes and gives focus back to the button; Tab or a click elsewhere closes.
 */
export function ConversationMenu({
  anchor,
  label,
  items,
  onClose
}: {
  anchor: HTMLElement
  label: string
  items: MenuItem[]
  onClose(restoreFocus: boolean): void
}) {
  const ref = useRef<HTMLDivElement>(null)
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null)
  const close = useRef(onClose)
  close.current = onClose

  useLayoutEffect(() => {
    const menu = ref.current
    if (!menu) return
    const button = anchor.getBoundingClientRect()
    const { width, height } = menu.getBoundingClientRect()
    const below = button.bottom + 4
    const top = below + height > window.innerHeight - 8 ? Math.max(8, button.top - height - 4) : below
    const left = Math.min(Math.max(8, button.right - width), window.innerWidth - width - 8)
    setPosition({ top, left })
  }, [anchor])

  // Once placed (a hidden menu cannot take focus), the first item has it.
  const placed = position !== null
  useEffect(() => {
    if (placed) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
  }, [placed])

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node
      if (ref.current?.contains(target) || anchor.contains(target)) return
      close.current(false)
    }
    // The list scrolling or the window resizing would leave the menu beside the wrong row.
    const onMove = (event: Event) => {
      if (event.type === 'scroll' && ref.current?.contains(event.target as Node)) return
      close.current(false)
    }
    document.addEventListener('pointerdown', onPointerDown, true)
    window.addEventListener('resize', onMove)
    document.addEventListener('scroll', onMove, true)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true)
      window.removeEventListener('resize', onMove)
      document.removeEventListener('scroll', onMove, true)
    }
  }, [anchor])

  const onKeyDown = (event: KeyboardEvent) => {
    const entries = Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])
    const index = entries.indexOf(document.activeElement as HTMLElement)
    const focusAt = (i: number) => entries[(i + entries.length) % entries.length]?.focus()
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        focusAt(index + 1)
        break
      case 'ArrowUp':
        event.preventDefault()
        focusAt(index - 1)
        break
      case 'Home':
        event.preventDefault()
        focusAt(0)
        break
      case 'End':
        event.preventDefault()
        focusAt(entries.length - 1)
        break
      case 'Escape':
        // Handled here: the window's Escape (stop the run) must not see it.
        event.preventDefault()
        event.stopPropagation()
        onClose(true)
        break
      case 'Tab':
        event.preventDefault()
        onClose(true)
        break
    }
  }

  return createPortal(
    <div
      ref={ref}
      className="conversation-menu"
      role="menu"
      aria-label={label}
      data-testid="conversation-menu-list"
      style={position ? { top: position.top, left: position.left } : { top: 0, left: 0, visibility: 'hidden' }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`conversation-menu-item${item.danger ? ' danger' : ''}`}
          data-testid={item.testId}
          onClick={() => {
            onClose(false)
            item.onSelect()
          }}
        >
          {item.icon}
          <span>{item.label}</span>
        </button>
      ))}
    </div>,
    document.body
  )
}
