import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { useT } from '../../i18n'
import { useDesktopStore, useNoticesStore } from '../../stores'
import { isMac, StopIcon } from '../common'
import { matchesAccelerator, parseAccelerator, shortcutLabel } from '../../../../shared/accelerator'

/** Stands in for the shortcut while the sentence is translated, so it can be shown as a key. */
const SHORTCUT_SLOT = '\u0000'

/**
 * "DeskClaw is controlling your desktop — press Ctrl+Alt+Esc to stop", across the top of the
 * window (above open dialogs too) while a run holds the keyboard and mouse. Its Stop button, and
 * the same shortcut pressed in this page, call `desktop.stop`: the web host has no global shortcut,
 * and in the app the page sees the keys when the global one could not be registered.
 */
export function DesktopBanner() {
  const t = useT()
  const control = useDesktopStore((s) => s.control)
  const stopping = useDesktopStore((s) => s.stopping)
  const stop = useDesktopStore((s) => s.stop)
  const pushNotice = useNoticesStore((s) => s.push)
  const holder = control?.holder ?? null
  const shortcut = control?.stopShortcut ?? ''
  const accelerator = useMemo(() => parseAccelerator(shortcut, isMac), [shortcut])
  const controlling = holder !== null
  const ref = useRef<HTMLDivElement>(null)

  // Dialogs open below the banner, not under it (the stylesheets read --top-inset); it may wrap, so measured.
  useLayoutEffect(() => {
    const banner = ref.current
    if (!controlling || !banner) return
    const root = document.documentElement
    const update = () => root.style.setProperty('--top-inset', `${Math.ceil(banner.getBoundingClientRect().height)}px`)
    update()
    const observer = new ResizeObserver(update)
    observer.observe(banner)
    return () => {
      observer.disconnect()
      root.style.removeProperty('--top-inset')
    }
  }, [controlling])

  const stopNow = useCallback(async () => {
    const result = await stop()
    if (!result.ok) pushNotice(t('desktop.stopFailed', { message: t.error(result.error) }))
  }, [stop, pushNotice, t])

  useEffect(() => {
    if (!controlling || !accelerator) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matchesAccelerator(accelerator, event)) return
      // First in line (window, capture): before dialogs and the app's own Esc, which would cancel the run.
      event.preventDefault()
      event.stopPropagation()
      if (!event.repeat) void stopNow()
    }
    window.addEventListener('keydown', onKeyDown, true)
    return () => window.removeEventListener('keydown', onKeyDown, true)
  }, [controlling, accelerator, stopNow])

  if (!control || !holder) return null

  const [before, after = ''] = t('desktop.banner', { shortcut: SHORTCUT_SLOT }).split(SHORTCUT_SLOT)

  return (
    <div
      ref={ref}
      className="desktop-banner"
      role="alert"
      data-testid="desktop-banner"
      data-run-id={holder.runId}
      data-conversation-id={holder.conversationId}
      data-shortcut-active={control.shortcutActive}
    >
      <span className="desktop-banner-dot" aria-hidden="true" />
      <span className="desktop-banner-text">
        {before}
        <kbd data-testid="desktop-shortcut">{shortcutLabel(shortcut, isMac)}</kbd>
        {after}
        {!control.shortcutActive && <span className="desktop-banner-note"> {t('desktop.shortcutWindowOnly')}</span>}
      </span>
      <button
        type="button"
        className="btn btn-small desktop-banner-stop"
        data-testid="desktop-stop"
        title={t('desktop.stopTitle')}
        disabled={stopping}
        onClick={() => void stopNow()}
      >
        <StopIcon size={12} />
        {stopping ? t('desktop.stopping') : t('desktop.stop')}
      </button>
    </div>
  )
}
