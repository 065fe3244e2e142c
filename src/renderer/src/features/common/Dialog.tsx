/**
 * A modal dialog: rendered in a portal, focus moved in and trapped (Tab cycles inside), focus
 * restored on close. Dialogs stack; only the topmost receives keys, so an approval that pops up
 * over Settings takes the keyboard.
 */
import { type ReactNode, useEffect, useRef } from 'react'
import { createPortal } from 'react-dom'

const stack: symbol[] = []

/** True while any modal is open (global shortcuts stand aside). */
export function isDialogOpen(): boolean {
  return stack.length > 0
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export interface DialogProps {
  labelledBy: string
  describedBy?: string
  role?: 'dialog' | 'alertdialog'
  className?: string
  testId?: string
  /** Keys while this dialog is on top (after the focus trap had its turn). */
  onKeyDown?: (event: KeyboardEvent) => void
  /** Click on the backdrop (omit to ignore such clicks). */
  onBackdrop?: () => void
  children: ReactNode
}

export function Dialog({ labelledBy, describedBy, role = 'dialog', className, testId, onKeyDown, onBackdrop, children }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null)
  const keyHandler = useRef(onKeyDown)
  keyHandler.current = onKeyDown

  useEffect(() => {
    const id = Symbol('dialog')
    stack.push(id)
    const previous = document.activeElement as HTMLElement | null
    const container = ref.current
    // The container, not a button: a stray Enter or Space must not press anything.
    container?.focus()

    const onKey = (event: KeyboardEvent) => {
      if (stack[stack.length - 1] !== id || !container) return
      if (event.key === 'Tab') {
        const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null)
        if (focusable.length === 0) {
          event.preventDefault()
          container.focus()
          return
        }
        const first = focusable[0]!
        const last = focusable[focusable.length - 1]!
        const active = document.activeElement
        if (event.shiftKey && (active === first || active === container || !container.contains(active))) {
          event.preventDefault()
          last.focus()
        } else if (!event.shiftKey && (active === last || !container.contains(active))) {
          event.preventDefault()
          first.focus()
        }
        return
      }
      keyHandler.current?.(event)
    }
    const onFocusIn = (event: FocusEvent) => {
      if (stack[stack.length - 1] !== id || !container) return
      if (event.target instanceof Node && !container.contains(event.target)) container.focus()
    }
    document.addEventListener('keydown', onKey, true)
    document.addEventListener('focusin', onFocusIn)
    return () => {
      document.removeEventListener('keydown', onKey, true)
      document.removeEventListener('focusin', onFocusIn)
      const index = stack.indexOf(id)
      if (index !== -1) stack.splice(index, 1)
      if (previous && document.contains(previous)) previous.focus()
    }
  }, [])

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target !== event.currentTarget) return
        event.preventDefault() // keep focus inside the dialog
        onBackdrop?.()
      }}
    >
      <div
        ref={ref}
        className={`dialog ${className ?? ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        data-testid={testId}
      >
        {children}
      </div>
    </div>,
    document.body
  )
}
