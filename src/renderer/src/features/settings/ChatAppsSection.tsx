/**
 * Settings, "Chat apps": the apps the send-text task may drive (`desktop.apps`), each off until the
 * user turns it on, with the chats it may send to; how often it may send, how a sent message is
 * marked, and when a task gives up (docs/desktop.md, "Sending messages"). Part of the settings
 * form's draft: saved with the rest by its Save button, `chatApps` written whole.
 */
import { useCallback, useEffect, useId, useState } from 'react'
import type { ChatAppInfo, ChatWatermark, Settings } from '../../../../shared/bridge'
// Values, not only types: the section checks its fields with the very schema main checks them with.
import { ChatWatermarkSchema, SettingsSchema, settingsProblems } from '../../../../shared/bridge/settings'
import type { AppErrorShape } from '../../../../shared/errors'
import { getDeskclawApi } from '../../bridge'
import { type Translator, useT } from '../../i18n'
import { AlertIcon, Spinner } from '../common'
import { Field, fieldAria, parseInteger } from './fields'
import { LearnAppDialog } from './LearnAppDialog'

const WATERMARKS: readonly ChatWatermark[] = ChatWatermarkSchema.options

/** One app's settings as the form edits them: the allowlist as typed, one chat per line. */
export interface ChatAppDraft {
  enabled: boolean
  allowlist: string
}

/** The section's part of the settings form's draft (numbers as typed). */
export interface ChatDraft {
  chatApps: Readonly<Record<string, ChatAppDraft>>
  chatSendMinIntervalSec: string
  chatSendPerHour: string
  chatWatermark: ChatWatermark
  chatWatermarkSuffix: string
  chatSendTimeoutSec: string
}

type ChatSettings = Pick<
  Settings,
  'chatApps' | 'chatSendMinIntervalSec' | 'chatSendPerHour' | 'chatWatermark' | 'chatWatermarkSuffix' | 'chatSendTimeoutSec'
>

/** An app's error is at `chatApp.<id>`; whatever is wrong with the record as a whole at `chatApps`. */
export type ChatDraftErrors = Partial<Record<keyof ChatDraft | `chatApp.${string}`, string>>

const OFF: ChatAppDraft = { enabled: false, allowlist: '' }

export function toChatDraft(settings: Settings): ChatDraft {
  return {
    chatApps: Object.fromEntries(
      Object.entries(settings.chatApps).map(([id, app]) => [id, { enabled: app.enabled, allowlist: app.allowlist.join('\n') }])
    ),
    chatSendMinIntervalSec: String(settings.chatSendMinIntervalSec),
    chatSendPerHour: String(settings.chatSendPerHour),
    chatWatermark: settings.chatWatermark,
    chatWatermarkSuffix: settings.chatWatermarkSuffix,
    chatSendTimeoutSec: String(settings.chatSendTimeoutSec)
  }
}

/** An allowlist as typed: one chat per line, blank lines and repeats dropped, each trimmed. */
export function allowlistLines(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))]
}

const ALLOWLIST_MAX = 500
const CHAT_NAME_MAX = 200

/**
 * The chat settings a draft stands for and what is wrong with each field (translated), checked with
 * SettingsSchema's field schemas and settingsProblems. An app the user never touched stays out of
 * the record (off, any chat, is what a missing entry means).
 */
export function evaluateChatDraft(draft: ChatDraft, settings: Settings, t: Translator): { next: ChatSettings; errors: ChatDraftErrors } {
  const errors: ChatDraftErrors = {}
  const shape = SettingsSchema.shape
  const integer = (key: keyof ChatDraft, label: string, text: string, min: number, max: number) => {
    const value = parseInteger(text, min, max)
    if (value === null || !shape[key].safeParse(value).success) errors[key] = t('settings.invalidInteger', { field: label, min, max })
    return value
  }
  const minInterval = integer('chatSendMinIntervalSec', t('settings.chatApps.minInterval'), draft.chatSendMinIntervalSec, 0, 86_400)
  const perHour = integer('chatSendPerHour', t('settings.chatApps.perHour'), draft.chatSendPerHour, 1, 1000)
  const timeout = integer('chatSendTimeoutSec', t('settings.chatApps.timeout'), draft.chatSendTimeoutSec, 5, 600)

  const chatApps: Settings['chatApps'] = {}
  for (const [id, app] of Object.entries(draft.chatApps)) {
    const allowlist = allowlistLines(app.allowlist)
    if (!app.enabled && allowlist.length === 0 && !Object.hasOwn(settings.chatApps, id)) continue
    chatApps[id] = { enabled: app.enabled, allowlist }
    if (!shape.chatApps.safeParse({ [id]: chatApps[id] }).success) {
      const long = allowlist.find((name) => name.length > CHAT_NAME_MAX)
      errors[`chatApp.${id}`] =
        long !== undefined
          ? t('settings.chatApps.nameTooLong', { max: CHAT_NAME_MAX })
          : allowlist.length > ALLOWLIST_MAX
            ? t('settings.chatApps.tooManyChats', { max: ALLOWLIST_MAX })
            : t('settings.invalidValue', { message: id })
    }
  }

  const next: ChatSettings = {
    chatApps,
    chatSendMinIntervalSec: minInterval ?? settings.chatSendMinIntervalSec,
    chatSendPerHour: perHour ?? settings.chatSendPerHour,
    chatWatermark: draft.chatWatermark,
    // Kept as typed: a suffix may begin with a space (" [DeskClaw]").
    chatWatermarkSuffix: draft.chatWatermarkSuffix,
    chatSendTimeoutSec: timeout ?? settings.chatSendTimeoutSec
  }
  const problems = settingsProblems(next)
  if (problems.chatWatermarkSuffix !== undefined) errors.chatWatermarkSuffix = t('settings.chatApps.suffixTooLong', { max: 100 })
  if (problems.chatWatermark !== undefined) errors.chatWatermark = t('settings.invalidValue', { message: problems.chatWatermark })
  const appError = Object.keys(errors).some((key) => key.startsWith('chatApp.'))
  if (problems.chatApps !== undefined && !appError) errors.chatApps = t('settings.invalidValue', { message: problems.chatApps })
  return { next, errors }
}

type AppsState =
  | { status: 'loading' }
  | { status: 'error'; error: AppErrorShape }
  | { status: 'ready'; apps: ChatAppInfo[]; problems: Array<{ file: string; error: string }> }

/** `desktop.apps`, asked once when the section shows, again on Retry. */
function useChatApps(): { state: AppsState; reload(): void } {
  const [state, setState] = useState<AppsState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setState({ status: 'loading' })
    void getDeskclawApi()
      .invoke('desktop.apps', {})
      .then((result) => {
        if (!live) return
        setState(result.ok ? { status: 'ready', apps: result.data.apps, problems: result.data.problems } : { status: 'error', error: result.error })
      })
    return () => {
      live = false
    }
  }, [attempt])
  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, reload }
}

function ChatAppRow({
  app,
  draft,
  error,
  onChange
}: {
  app: ChatAppInfo
  draft: ChatAppDraft
  error: string | undefined
  onChange(next: ChatAppDraft): void
}) {
  const t = useT()
  const id = useId()
  const name = app.name[t.language] || app.name.en
  // Shipped profiles say it in both languages (issue 22, item 5); a user's own profile as written.
  const testedWith = typeof app.testedWith === 'string' ? app.testedWith : app.testedWith ? app.testedWith[t.language] || app.testedWith.en : undefined
  // An app this computer cannot run it for is not turned on here (but one that is on can be turned off).
  const switchDisabled = !app.supported && !draft.enabled
  const showAllowlist = draft.enabled || draft.allowlist.trim() !== ''
  const describedBy = [testedWith ? `${id}-tested` : '', !app.supported ? `${id}-unsupported` : ''].filter(Boolean).join(' ')
  return (
    <li
      className={`chat-app${draft.enabled ? ' enabled' : ''}${app.supported ? '' : ' unsupported'}`}
      data-testid="chat-app"
      data-app={app.id}
      data-enabled={String(draft.enabled)}
      data-supported={String(app.supported)}
      data-source={app.source}
    >
      <div className="chat-app-head">
        <div className="chat-app-title">
          <span className="chat-app-name" data-testid="chat-app-name">
            {name}
          </span>
          {app.source !== 'builtin' && (
            <span className="chat-app-badge" data-testid="chat-app-source" title={t(`settings.chatApps.source.${app.source}.title`)}>
              {t(`settings.chatApps.source.${app.source}`)}
            </span>
          )}
          {!app.supported && (
            <span id={`${id}-unsupported`} className="chat-app-unsupported" data-testid="chat-app-unsupported">
              <AlertIcon size={12} />
              {t('settings.chatApps.unsupported')}
            </span>
          )}
        </div>
        <label className="switch" htmlFor={`${id}-enabled`} title={switchDisabled ? t('settings.chatApps.unsupported') : undefined}>
          <input
            id={`${id}-enabled`}
            type="checkbox"
            role="switch"
            data-testid="chat-app-enabled"
            checked={draft.enabled}
            disabled={switchDisabled}
            aria-label={t('settings.chatApps.enableApp', { app: name })}
            aria-describedby={describedBy || undefined}
            onChange={(event) => onChange({ ...draft, enabled: event.target.checked })}
          />
          <span className="switch-track" aria-hidden="true" />
          <span className="switch-text">{draft.enabled ? t('settings.chatApps.on') : t('settings.chatApps.off')}</span>
        </label>
      </div>
      {testedWith && (
        <div id={`${id}-tested`} className="chat-app-tested" data-testid="chat-app-tested">
          {t('settings.chatApps.testedWith', { what: testedWith })}
        </div>
      )}
      {showAllowlist && (
        <Field
          label={t('settings.chatApps.allowlist')}
          hint={t('settings.chatApps.allowlistHint')}
          htmlFor={`${id}-allowlist`}
          field={`chatApp.${app.id}`}
          error={error}
        >
          <textarea
            id={`${id}-allowlist`}
            className="text-input chat-app-allowlist"
            data-testid="chat-app-allowlist"
            rows={3}
            spellCheck={false}
            value={draft.allowlist}
            placeholder={t('settings.chatApps.allowlistPlaceholder')}
            onChange={(event) => onChange({ ...draft, allowlist: event.target.value })}
            {...fieldAria(`${id}-allowlist`, true, error)}
          />
        </Field>
      )}
    </li>
  )
}

export function ChatAppsSection({
  draft,
  errors,
  set
}: {
  draft: ChatDraft
  errors: ChatDraftErrors
  set<K extends keyof ChatDraft>(key: K, value: ChatDraft[K]): void
}) {
  const t = useT()
  const id = useId()
  const { state, reload } = useChatApps()
  const [learning, setLearning] = useState(false)
  const aria = (field: keyof ChatDraft, htmlFor: string, hint = true) => fieldAria(htmlFor, hint, errors[field])

  return (
    <section className="chat-apps" data-testid="chat-apps-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('settings.section.chatApps')}</h3>
      <p className="field-hint chat-apps-intro">{t('settings.chatApps.intro')}</p>

      {state.status === 'loading' && (
        <div className="chat-apps-status" data-testid="chat-apps-loading">
          <Spinner size={12} /> {t('settings.chatApps.loading')}
        </div>
      )}
      {state.status === 'error' && (
        <div className="chat-apps-status failed" role="alert" data-testid="chat-apps-error">
          <span>{t('settings.chatApps.loadFailed', { message: t.error(state.error) })}</span>
          <button type="button" className="btn btn-small" onClick={reload}>
            {t('chat.retry')}
          </button>
        </div>
      )}
      {state.status === 'ready' && state.problems.length > 0 && (
        <div className="chat-apps-problems" role="status" data-testid="chat-apps-problems">
          <div className="chat-apps-problems-title">
            <AlertIcon size={13} />
            {t('settings.chatApps.problems')}
          </div>
          <ul>
            {state.problems.map((problem, index) => (
              <li key={index} data-testid="chat-apps-problem" data-file={problem.file}>
                <code>{problem.file}</code>
                <span>{problem.error}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {state.status === 'ready' &&
        (state.apps.length === 0 ? (
          <div className="chat-apps-status" data-testid="chat-apps-empty">
            {t('settings.chatApps.none')}
          </div>
        ) : (
          <ul className="chat-app-list" aria-label={t('settings.section.chatApps')}>
            {state.apps.map((app) => {
              const current = Object.hasOwn(draft.chatApps, app.id) ? draft.chatApps[app.id]! : OFF
              return (
                <ChatAppRow
                  key={app.id}
                  app={app}
                  draft={current}
                  error={errors[`chatApp.${app.id}`]}
                  onChange={(next) => set('chatApps', { ...draft.chatApps, [app.id]: next })}
                />
              )
            })}
          </ul>
        ))}
      <div className="chat-apps-add">
        <button type="button" className="btn btn-small" data-testid="chat-apps-add" onClick={() => setLearning(true)}>
          {t('learn.add')}
        </button>
        <span className="field-hint">{t('learn.addHint')}</span>
      </div>
      {learning && (
        <LearnAppDialog
          onClose={(saved) => {
            setLearning(false)
            if (saved) reload()
          }}
        />
      )}
      {errors.chatApps && (
        <div className="field-error" data-testid="settings-field-error" data-field="chatApps">
          {errors.chatApps}
        </div>
      )}

      <div className="field-row">
        <Field
          label={t('settings.chatApps.minInterval')}
          hint={t('settings.chatApps.minIntervalHint')}
          htmlFor={`${id}-interval`}
          field="chatSendMinIntervalSec"
          error={errors.chatSendMinIntervalSec}
        >
          <input
            id={`${id}-interval`}
            className="text-input"
            data-testid="settings-chat-min-interval"
            inputMode="numeric"
            value={draft.chatSendMinIntervalSec}
            onChange={(event) => set('chatSendMinIntervalSec', event.target.value)}
            {...aria('chatSendMinIntervalSec', `${id}-interval`)}
          />
        </Field>
        <Field
          label={t('settings.chatApps.perHour')}
          hint={t('settings.chatApps.perHourHint')}
          htmlFor={`${id}-per-hour`}
          field="chatSendPerHour"
          error={errors.chatSendPerHour}
        >
          <input
            id={`${id}-per-hour`}
            className="text-input"
            data-testid="settings-chat-per-hour"
            inputMode="numeric"
            value={draft.chatSendPerHour}
            onChange={(event) => set('chatSendPerHour', event.target.value)}
            {...aria('chatSendPerHour', `${id}-per-hour`)}
          />
        </Field>
      </div>
      <div className="field-row">
        <Field
          label={t('settings.chatApps.watermark')}
          hint={t(`settings.chatApps.watermark.${draft.chatWatermark}.hint`)}
          htmlFor={`${id}-watermark`}
          field="chatWatermark"
          error={errors.chatWatermark}
        >
          <select
            id={`${id}-watermark`}
            className="text-input"
            data-testid="settings-chat-watermark"
            value={draft.chatWatermark}
            onChange={(event) => set('chatWatermark', event.target.value as ChatWatermark)}
            {...aria('chatWatermark', `${id}-watermark`)}
          >
            {WATERMARKS.map((choice) => (
              <option key={choice} value={choice}>
                {t(`settings.chatApps.watermark.${choice}`)}
              </option>
            ))}
          </select>
        </Field>
        {draft.chatWatermark === 'suffix' && (
          <Field
            label={t('settings.chatApps.suffix')}
            hint={t('settings.chatApps.suffixHint')}
            htmlFor={`${id}-suffix`}
            field="chatWatermarkSuffix"
            error={errors.chatWatermarkSuffix}
          >
            <input
              id={`${id}-suffix`}
              className="text-input"
              data-testid="settings-chat-suffix"
              value={draft.chatWatermarkSuffix}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => set('chatWatermarkSuffix', event.target.value)}
              {...aria('chatWatermarkSuffix', `${id}-suffix`)}
            />
          </Field>
        )}
      </div>
      <div className="field-row">
        <Field
          label={t('settings.chatApps.timeout')}
          hint={t('settings.chatApps.timeoutHint')}
          htmlFor={`${id}-timeout`}
          field="chatSendTimeoutSec"
          error={errors.chatSendTimeoutSec}
        >
          <input
            id={`${id}-timeout`}
            className="text-input"
            data-testid="settings-chat-timeout"
            inputMode="numeric"
            value={draft.chatSendTimeoutSec}
            onChange={(event) => set('chatSendTimeoutSec', event.target.value)}
            {...aria('chatSendTimeoutSec', `${id}-timeout`)}
          />
        </Field>
      </div>
    </section>
  )
}
