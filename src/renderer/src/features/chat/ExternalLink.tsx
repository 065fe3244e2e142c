/**
 * A link in the model's Markdown. It never navigates this window, and it leaves the app only after
 * the user has seen the full address and said yes (src/shared/external-links.ts decides what may
 * open at all: http, https, mailto).
 * - Served by `deskclaw web`: this confirm dialog asks, then window.open(…, 'noopener,noreferrer').
 * - In the Electron app (the IPC transport, window.deskclaw): window.open goes straight to the main
 *   process, whose window-open handler asks natively with the full URL — so it is asked once, there.
 */
import { type MouseEvent, type ReactNode, useState } from 'react'
import { externalLinkDecision, type ExternalLinkDecision } from '../../../../shared/external-links'
import { useT } from '../../i18n'
import { ConfirmDialog } from '../common'

type AllowedLink = Extract<ExternalLinkDecision, { allowed: true }>

/** The Electron preload sets window.deskclaw; the main process asks there, so the renderer does not. */
function mainProcessAsks(): boolean {
  return window.deskclaw !== undefined
}

function openOutside(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer')
}

export function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const t = useT()
  const [asking, setAsking] = useState<AllowedLink | null>(null)
  const decision = externalLinkDecision(href)
  if (!decision.allowed) {
    // Not a web or mail address (relative, file:, javascript:, …): shown as text, never followed.
    return (
      <span className="link-refused" title={decision.display ? t('link.notOpened', { url: decision.display }) : undefined}>
        {children}
      </span>
    )
  }
  const onActivate = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault()
    if (mainProcessAsks()) openOutside(decision.url)
    else setAsking(decision)
  }
  return (
    <>
      <a
        href={decision.url}
        target="_blank"
        rel="noreferrer noopener"
        onClick={onActivate}
        onAuxClick={(event) => {
          // A middle click would open a tab without asking.
          if (event.button === 1) onActivate(event)
        }}
      >
        {children}
      </a>
      {asking && (
        <OpenLinkDialog
          link={asking}
          onOpen={() => {
            setAsking(null)
            openOutside(asking.url)
          }}
          onCancel={() => setAsking(null)}
        />
      )}
    </>
  )
}

/** Shows the whole address (and its site) before anything opens; Cancel is the safe way out (Escape, backdrop). */
export function OpenLinkDialog({ link, onOpen, onCancel }: { link: AllowedLink; onOpen(): void; onCancel(): void }) {
  const t = useT()
  return (
    <ConfirmDialog
      testId="open-link"
      title={t('link.title')}
      body={
        <>
          <p>{t('link.body')}</p>
          <p className="mono" style={{ overflowWrap: 'anywhere', userSelect: 'text', color: 'var(--text)' }} data-testid="open-link-url">
            {link.display}
          </p>
          <p>{t('link.site', { site: link.site })}</p>
        </>
      }
      cancelLabel={t('link.cancel')}
      confirmLabel={t('link.open')}
      onConfirm={onOpen}
      onCancel={onCancel}
    />
  )
}
