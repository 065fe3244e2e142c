/**
 * The settings dialog: a menu of sections beside their pages (sections.tsx). The sections saved by
 * the form's Save button edit one draft (use-settings-form.ts); Web, Checkpoints and Project checks
 * keep their own copy, reported to the form (pending-sections.ts) so that its Save and Close cover them.
 */
import { type FormEvent, type MutableRefObject, useId, useRef, useState } from 'react'
import type { Settings } from '../../../../shared/bridge'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { Dialog, XIcon } from '../common'
import { ChatAppsSection } from './ChatAppsSection'
import { CheckpointsSection } from './CheckpointsSection'
import { DesktopSection } from './DesktopSection'
import { GeneralSection } from './GeneralSection'
import { McpServersSection } from './McpServersSection'
import { ModelPricesSection } from './ModelPricesSection'
import { ModelSection } from './ModelSection'
import { ProjectChecksSection } from './ProjectChecksSection'
import { SafetySection } from './SafetySection'
import { SettingsFooter } from './SettingsFooter'
import { SettingsNav, SettingsPage, type SettingsSectionId, useSettingsSection } from './sections'
import { UnsavedChangesDialog } from './UnsavedChangesDialog'
import { useSettingsForm } from './use-settings-form'
import { WebDomainsSection } from './WebDomainsSection'

interface SettingsFormProps {
  settings: Settings
  onClose(): void
  /** What the panel's close (×, Esc, the backdrop) does: the form asks first when it holds unsaved changes. */
  closeRequest: MutableRefObject<() => void>
  /** Where to open: the section scrolled into view and its first control focused. */
  section?: SettingsSection | null
}

/** A Settings section another screen can open at (the chat header's autonomy chip opens Safety): see sections.tsx. */
export type SettingsSection = SettingsSectionId

function SettingsForm({ settings, onClose, closeRequest, section }: SettingsFormProps) {
  const form = useSettingsForm(settings)
  const { draft, errors, set, invalid, saving, dirty, save } = form
  const [askingToClose, setAskingToClose] = useState(false)
  const [active, choose] = useSettingsSection(section)
  closeRequest.current = dirty ? () => setAskingToClose(true) : onClose

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    await save()
  }

  return (
    <form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="settings-layout">
        <SettingsNav active={active} onChoose={choose} />
        <div className="settings-scroll">
          <SettingsPage id="model" active={active}>
            <ModelSection form={form} />
          </SettingsPage>
          <SettingsPage id="safety" active={active}>
            <SafetySection form={form} openedHere={section === 'safety'} />
          </SettingsPage>
          <SettingsPage id="desktop" active={active}>
            <DesktopSection form={form} />
          </SettingsPage>
          <SettingsPage id="chatApps" active={active}>
            <ChatAppsSection draft={draft} errors={errors} set={set} />
          </SettingsPage>
          <SettingsPage id="mcp" active={active}>
            <McpServersSection />
          </SettingsPage>
          <SettingsPage id="web" active={active}>
            <WebDomainsSection settings={settings} pending={form.pending} />
          </SettingsPage>
          <SettingsPage id="prices" active={active}>
            <ModelPricesSection draft={draft} set={set} suggestedModel={draft.model.trim()} />
          </SettingsPage>
          <SettingsPage id="checkpoints" active={active}>
            <CheckpointsSection settings={settings} pending={form.pending} />
          </SettingsPage>
          <SettingsPage id="checks" active={active}>
            <ProjectChecksSection settings={settings} pending={form.pending} />
          </SettingsPage>
          <SettingsPage id="general" active={active}>
            <GeneralSection form={form} />
          </SettingsPage>
        </div>
      </div>

      <SettingsFooter form={form} onClose={() => closeRequest.current()} />
      {askingToClose && (
        <UnsavedChangesDialog
          canSave={!invalid}
          saving={saving}
          onKeepEditing={() => setAskingToClose(false)}
          onDiscard={onClose}
          onSave={() => void save().then((ok) => (ok ? onClose() : setAskingToClose(false)))}
        />
      )}
    </form>
  )
}

export function SettingsPanel({ onClose, section }: { onClose(): void; section?: SettingsSection | null }) {
  const t = useT()
  const titleId = useId()
  const settings = useSettingsStore((s) => s.settings)
  const loadError = useSettingsStore((s) => s.loadError)
  const load = useSettingsStore((s) => s.load)
  // The form replaces this with a close that asks first while it holds unsaved changes.
  const closeRequest = useRef(onClose)
  const requestClose = () => closeRequest.current()

  return (
    <Dialog
      labelledBy={titleId}
      className="settings-dialog"
      testId="settings-panel"
      onBackdrop={requestClose}
      onKeyDown={(event) => {
        // An open model list takes Esc first (it closes the list, not Settings).
        const target = event.target as HTMLElement | null
        if (event.key === 'Escape' && target?.getAttribute('role') === 'combobox' && target.getAttribute('aria-expanded') === 'true') return
        if (event.key === 'Escape') {
          event.preventDefault()
          requestClose()
        }
      }}
    >
      <div className="settings-head">
        <h2 id={titleId} className="dialog-title">
          {t('settings.title')}
        </h2>
        <button type="button" className="icon-button" data-testid="settings-close-x" onClick={requestClose} aria-label={t('settings.close')}>
          <XIcon />
        </button>
      </div>
      {settings ? (
        <SettingsForm settings={settings} onClose={onClose} closeRequest={closeRequest} section={section} />
      ) : loadError ? (
        <div className="chat-status error">
          <span>
            {t('settings.loadFailed')} {t.error(loadError)}
          </span>
          <button type="button" className="btn btn-small" onClick={() => void load()}>
            {t('chat.retry')}
          </button>
        </div>
      ) : (
        <div className="chat-status">{t('settings.loading')}</div>
      )}
    </Dialog>
  )
}
