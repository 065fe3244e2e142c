/**
 * Settings' section menu (issue 22, item 9): one page per section instead of one long form, a
 * vertical tab list beside them (a row of tabs above them in a narrow window), reachable by
 * keyboard, the last section opened remembered.
 *
 * To add a section: one row in SETTINGS_SECTIONS (its id and the nav label's message key, in
 * en.ts and zh-CN.ts), its component in a file of its own named for it (…Section.tsx), then one
 * `<SettingsPage id="…" active={active}>…</SettingsPage>` around it in SettingsPanel's form. The
 * page stays mounted while hidden, so a section's own state and the form's draft survive switching.
 */
import { type KeyboardEvent, type ReactNode, useLayoutEffect, useRef, useState } from 'react'
import { type MessageKey, useT } from '../../i18n'

export const SETTINGS_SECTIONS = [
  { id: 'general', label: 'settings.nav.general' },
  { id: 'model', label: 'settings.nav.model' },
  { id: 'safety', label: 'settings.nav.safety' },
  { id: 'desktop', label: 'settings.nav.desktop' },
  { id: 'chatApps', label: 'settings.nav.chatApps' },
  { id: 'mcp', label: 'settings.nav.mcp' },
  { id: 'web', label: 'settings.nav.web' },
  { id: 'prices', label: 'settings.nav.prices' },
  { id: 'checkpoints', label: 'settings.nav.checkpoints' },
  { id: 'checks', label: 'settings.nav.checks' }
] as const satisfies ReadonlyArray<{ id: string; label: MessageKey }>

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id']

const STORAGE_KEY = 'deskclaw.settings.section'

function isSectionId(value: unknown): value is SettingsSectionId {
  return SETTINGS_SECTIONS.some((section) => section.id === value)
}

/** The section last opened in this browser (localStorage), else the first. */
function rememberedSection(): SettingsSectionId {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY)
    return isSectionId(stored) ? stored : SETTINGS_SECTIONS[0].id
  } catch {
    return SETTINGS_SECTIONS[0].id
  }
}

/** The open section: `requested` (another screen opened Settings at it) or the remembered one; choosing one remembers it. */
export function useSettingsSection(requested: SettingsSectionId | null | undefined): [SettingsSectionId, (id: SettingsSectionId) => void] {
  const [active, setActive] = useState<SettingsSectionId>(() => requested ?? rememberedSection())
  const choose = (id: SettingsSectionId) => {
    setActive(id)
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, id)
    } catch {
      // Private mode or storage full: the choice still holds while Settings is open.
    }
  }
  return [active, choose]
}

const tabId = (id: SettingsSectionId) => `settings-tab-${id}`
const pageId = (id: SettingsSectionId) => `settings-page-${id}`

/**
 * The menu: a tab list (click, or Up/Down/Left/Right, Home/End, which move and open). A section
 * holding a field with an error shows a mark, so a problem on a hidden page is found.
 */
export function SettingsNav({ active, onChoose }: { active: SettingsSectionId; onChoose(id: SettingsSectionId): void }) {
  const t = useT()
  const ref = useRef<HTMLDivElement>(null)
  const [withErrors, setWithErrors] = useState<string>('')
  // Which pages hold an invalid field, read from the pages themselves after each render.
  useLayoutEffect(() => {
    const form = ref.current?.closest('form')
    if (!form) return
    const ids = SETTINGS_SECTIONS.filter((section) => form.querySelector(`#${pageId(section.id)} [aria-invalid="true"]`)).map((section) => section.id)
    const next = ids.join(' ')
    if (next !== withErrors) setWithErrors(next)
  })

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = SETTINGS_SECTIONS.findIndex((section) => section.id === active)
    const last = SETTINGS_SECTIONS.length - 1
    const target =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? (index + 1) % SETTINGS_SECTIONS.length
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? (index + last) % SETTINGS_SECTIONS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    if (target === null) return
    event.preventDefault()
    const id = SETTINGS_SECTIONS[target]!.id
    onChoose(id)
    ref.current?.querySelector<HTMLButtonElement>(`#${tabId(id)}`)?.focus()
  }

  return (
    <div ref={ref} className="settings-nav" role="tablist" aria-orientation="vertical" aria-label={t('settings.nav.label')} data-testid="settings-nav" onKeyDown={onKeyDown}>
      {SETTINGS_SECTIONS.map((section) => {
        const selected = section.id === active
        const hasError = withErrors.split(' ').includes(section.id)
        return (
          <button
            key={section.id}
            type="button"
            role="tab"
            id={tabId(section.id)}
            className={`settings-nav-item${selected ? ' active' : ''}`}
            aria-selected={selected}
            aria-controls={pageId(section.id)}
            tabIndex={selected ? 0 : -1}
            data-testid={`settings-section-tab-${section.id}`}
            data-has-error={hasError ? 'true' : undefined}
            onClick={() => onChoose(section.id)}
          >
            {t(section.label)}
            {hasError && (
              <span className="settings-nav-error" role="img" aria-label={t('settings.nav.hasError')}>
                •
              </span>
            )}
          </button>
        )
      })}
    </div>
  )
}

/** One section's page: shown while its tab is the open one, kept mounted while hidden. */
export function SettingsPage({ id, active, children }: { id: SettingsSectionId; active: SettingsSectionId; children: ReactNode }) {
  return (
    <div role="tabpanel" id={pageId(id)} aria-labelledby={tabId(id)} className="settings-page" data-testid={`settings-page-${id}`} hidden={id !== active}>
      {children}
    </div>
  )
}
