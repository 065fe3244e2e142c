/**
 * Settings → Chat apps → Add an app (docs/desktop.md, "Teach DeskClaw a new app"): the wizard main
 * runs (`desktop.learn.*`), one section per step — the app's window, its search and send keys
 * (pressed here, or typed by name), one chat it shows and what DeskClaw found of it, a dry run that
 * never presses send, and the profile saved. Each answer comes back as the session's whole view.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import type { LearnAction, LearnView } from '../../../../shared/bridge'
import type { AppErrorShape } from '../../../../shared/errors'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { Dialog, Spinner } from '../common'
// Values, not only types: the wizard marks the dry run's refusal and suggests an id as main does.
import { DRY_RUN_REASON, suggestChatAppId } from '../../../../shared/bridge/desktop-learn'
import { comboFromKeyEvent } from './learn-keys'

type Busy = null | LearnAction['kind'] | 'start'

export function LearnAppDialog({ onClose }: { onClose(saved: boolean): void }) {
  const t = useT()
  const titleId = useId()
  const id = useId()
  const [view, setView] = useState<LearnView | null>(null)
  const [error, setError] = useState<AppErrorShape | null>(null)
  const [busy, setBusy] = useState<Busy>('start')
  const [windowTitle, setWindowTitle] = useState('')
  const [keys, setKeys] = useState({ search: '', send: 'enter' })
  const [listening, setListening] = useState<null | 'search' | 'send'>(null)
  const [chat, setChat] = useState('')
  const [target, setTarget] = useState('')
  const [draftText, setDraftText] = useState(t('learn.dryRun.defaultText'))
  const [name, setName] = useState({ en: '', zh: '' })
  const [appId, setAppId] = useState('')
  const [idTouched, setIdTouched] = useState(false)
  const sessionRef = useRef<string | null>(null)

  const api = getDeskclawApi()
  /** A new session (Refresh too: it lists the windows again, from the first step). */
  const start = () => {
    setBusy('start')
    if (sessionRef.current) void api.invoke('desktop.learn.close', { sessionId: sessionRef.current })
    void api.invoke('desktop.learn.start', {}).then((result) => {
      setBusy(null)
      if (!result.ok) return setError(result.error)
      sessionRef.current = result.data.sessionId
      setView(result.data)
      setWindowTitle((current) => current || result.data.windows[0]?.title || '')
    })
  }
  useEffect(() => {
    start()
    return () => {
      if (sessionRef.current) void api.invoke('desktop.learn.close', { sessionId: sessionRef.current })
    }
    // Once per dialog.
  }, [])

  const act = (action: LearnAction) => {
    if (!view) return
    setBusy(action.kind)
    setError(null)
    void api.invoke('desktop.learn.act', { sessionId: view.sessionId, action }).then((result) => {
      setBusy(null)
      if (!result.ok) return setError(result.error)
      setView(result.data)
      if (action.kind === 'chat' && !result.data.problem && target === '') setTarget(action.name.trim())
    })
  }

  const stage = view?.stage ?? 'window'
  const reached = (s: LearnView['stage']) => (['window', 'keys', 'chat', 'dry_run', 'save', 'saved'] as const).indexOf(stage) >= (['window', 'keys', 'chat', 'dry_run', 'save', 'saved'] as const).indexOf(s)
  const saved = stage === 'saved'

  const onKeyDown = (event: KeyboardEvent) => {
    if (listening) {
      const combo = comboFromKeyEvent(event)
      if (event.key === 'Escape' && !event.ctrlKey && !event.altKey && !event.shiftKey && !event.metaKey) {
        event.preventDefault()
        setListening(null)
        return
      }
      if (!combo) return // a modifier alone: wait for the key it goes with
      event.preventDefault()
      event.stopPropagation()
      setKeys((k) => ({ ...k, [listening]: combo }))
      setListening(null)
      return
    }
    if (event.key === 'Escape') {
      event.preventDefault()
      onClose(saved)
    }
  }

  const problem = view?.problem
  const keyField = (which: 'search' | 'send') => (
    <div className="learn-key">
      <label htmlFor={`${id}-${which}`}>{t(which === 'search' ? 'learn.keys.search' : 'learn.keys.send')}</label>
      <div className="learn-key-row">
        <input
          id={`${id}-${which}`}
          className="text-input"
          data-testid={`learn-key-${which}`}
          value={keys[which]}
          spellCheck={false}
          autoComplete="off"
          list={`${id}-key-names`}
          onChange={(event) => setKeys({ ...keys, [which]: event.target.value })}
          onKeyDown={(event: ReactKeyboardEvent) => {
            if (event.key === 'Enter' && !listening) event.preventDefault()
          }}
        />
        <button
          type="button"
          className={`btn btn-small${listening === which ? ' listening' : ''}`}
          data-testid={`learn-press-${which}`}
          aria-pressed={listening === which}
          onClick={() => setListening(listening === which ? null : which)}
        >
          {listening === which ? t('learn.keys.listening') : t('learn.keys.press')}
        </button>
      </div>
    </div>
  )

  return (
    <Dialog labelledBy={titleId} className="learn-dialog" testId="learn-dialog" onKeyDown={onKeyDown}>
      <h2 id={titleId} className="dialog-title">
        {t('learn.title')}
      </h2>
      <div className="dialog-body learn-body">
        <p className="field-hint">{t('learn.intro')}</p>

        <section className="learn-step" data-testid="learn-step-window">
          <h3>{t('learn.step.window')}</h3>
          <label htmlFor={`${id}-window`}>{t('learn.window.label')}</label>
          <div className="learn-key-row">
            <select id={`${id}-window`} className="text-input" data-testid="learn-window" value={windowTitle} onChange={(event) => setWindowTitle(event.target.value)}>
              {(view?.windows ?? []).map((w) => (
                <option key={w.title} value={w.title}>
                  {w.app ? `${w.title} — ${w.app}` : w.title}
                </option>
              ))}
            </select>
            <button type="button" className="btn btn-small" data-testid="learn-refresh" onClick={start} disabled={busy !== null}>
              {t('learn.window.refresh')}
            </button>
          </div>
          {view && view.windows.length === 0 && <div className="field-hint">{t('learn.window.none')}</div>}
          <button type="button" className="btn btn-primary btn-small" data-testid="learn-window-next" disabled={!windowTitle || busy !== null || saved} onClick={() => act({ kind: 'window', title: windowTitle })}>
            {t('learn.next')}
          </button>
        </section>

        {reached('keys') && (
          <section className="learn-step" data-testid="learn-step-keys">
            <h3>{t('learn.step.keys')}</h3>
            <p className="field-hint">{t('learn.keys.hint')}</p>
            <datalist id={`${id}-key-names`} data-testid="learn-key-names">
              {(view?.keyNames ?? []).map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            {keyField('search')}
            {keyField('send')}
            <button type="button" className="btn btn-primary btn-small" data-testid="learn-keys-next" disabled={busy !== null || saved} onClick={() => act({ kind: 'keys', search: keys.search, send: keys.send })}>
              {t('learn.next')}
            </button>
          </section>
        )}

        {reached('chat') && (
          <section className="learn-step" data-testid="learn-step-chat">
            <h3>{t('learn.step.chat')}</h3>
            <label htmlFor={`${id}-chat`}>{t('learn.chat.label')}</label>
            <div className="learn-key-row">
              <input id={`${id}-chat`} className="text-input" data-testid="learn-chat" value={chat} spellCheck={false} onChange={(event) => setChat(event.target.value)} />
              <button type="button" className="btn btn-primary btn-small" data-testid="learn-chat-find" disabled={busy !== null || saved} onClick={() => act({ kind: 'chat', name: chat })}>
                {busy === 'chat' ? <Spinner size={12} /> : null} {t('learn.chat.find')}
              </button>
            </div>
            {view?.findings && (
              <div className="learn-findings" data-testid="learn-findings" data-via={view.findings.via}>
                <div>{t(view.findings.via === 'accessibility' ? 'learn.found.accessibility' : 'learn.found.screen')}</div>
                {view.findings.elements.length > 0 && (
                  <ul>
                    {view.findings.elements.map((e, index) => (
                      <li key={index} data-testid="learn-element" data-kind={e.kind}>
                        <span className="learn-element-kind">{t(`learn.element.${e.kind}`)}</span> <code>{e.role}</code> “{e.name}”
                      </li>
                    ))}
                  </ul>
                )}
                <div className="field-hint" data-testid="learn-window-match">
                  {view.findings.titlePattern
                    ? t('learn.found.titlePattern', { pattern: view.findings.titlePattern })
                    : t('learn.found.titles', { titles: view.findings.titles.join(', ') })}
                </div>
              </div>
            )}
          </section>
        )}

        {reached('dry_run') && (
          <section className="learn-step" data-testid="learn-step-dry-run">
            <h3>{t('learn.step.dryRun')}</h3>
            <label htmlFor={`${id}-target`}>{t('learn.dryRun.target')}</label>
            <input id={`${id}-target`} className="text-input" data-testid="learn-target" value={target} spellCheck={false} onChange={(event) => setTarget(event.target.value)} />
            <label htmlFor={`${id}-text`}>{t('learn.dryRun.text')}</label>
            <input id={`${id}-text`} className="text-input" data-testid="learn-text" value={draftText} onChange={(event) => setDraftText(event.target.value)} />
            <button type="button" className="btn btn-primary btn-small" data-testid="learn-dry-run" disabled={busy !== null || saved} onClick={() => act({ kind: 'dry_run', target, text: draftText })}>
              {busy === 'dry_run' ? <Spinner size={12} /> : null} {busy === 'dry_run' ? t('learn.dryRun.running') : t('learn.dryRun.run')}
            </button>
            {view?.dryRun && (
              <div className="learn-dry-run" data-testid="learn-dry-run-result" data-passed={String(view.dryRun.passed)}>
                <ol className="learn-steps">
                  {view.dryRun.steps.map((s, index) => {
                    // The approval the dry run always refuses is where it stops on purpose, not a failure.
                    const stopped = s.step === 'approved' && s.detail === DRY_RUN_REASON
                    const label = stopped ? t('learn.dryRun.refused') : t(`toolStep.${s.step}` as 'toolStep.activated')
                    return (
                      <li key={index} data-testid="learn-dry-step" data-step={s.step} data-ok={String(s.ok)}>
                        <span aria-hidden="true">{stopped ? '■' : s.ok ? '✓' : '✗'}</span> {label}
                        {s.detail && !stopped && <span className="learn-step-detail">{s.detail}</span>}
                        {s.image && <img className="learn-crop" alt={label} src={`data:image/png;base64,${s.image.png}`} width={Math.min(s.image.width, 440)} />}
                      </li>
                    )
                  })}
                </ol>
                <div className={view.dryRun.passed ? 'learn-ok' : 'learn-failed'} role="status">
                  {view.dryRun.passed ? t('learn.dryRun.passed') : t('learn.dryRun.failed', { reason: view.dryRun.reason })}
                </div>
              </div>
            )}
          </section>
        )}

        {reached('save') && (
          <section className="learn-step" data-testid="learn-step-save">
            <h3>{t('learn.step.save')}</h3>
            <label htmlFor={`${id}-name`}>{t('learn.save.name')}</label>
            <input
              id={`${id}-name`}
              className="text-input"
              data-testid="learn-name"
              value={name.en}
              onChange={(event) => {
                setName({ ...name, en: event.target.value })
                if (!idTouched) setAppId(event.target.value.trim() ? suggestChatAppId(event.target.value) : '')
              }}
            />
            <label htmlFor={`${id}-name-zh`}>{t('learn.save.nameZh')}</label>
            <input id={`${id}-name-zh`} className="text-input" data-testid="learn-name-zh" value={name.zh} onChange={(event) => setName({ ...name, zh: event.target.value })} />
            <label htmlFor={`${id}-id`}>{t('learn.save.id')}</label>
            <input
              id={`${id}-id`}
              className="text-input"
              data-testid="learn-id"
              value={appId}
              spellCheck={false}
              onChange={(event) => {
                setIdTouched(true)
                setAppId(event.target.value)
              }}
            />
            <div className="field-hint">{t('learn.save.idHint')}</div>
            {view?.profile && (
              <details className="learn-profile">
                <summary>{t('learn.save.preview')}</summary>
                <pre data-testid="learn-profile">{view.profile}</pre>
              </details>
            )}
            <button type="button" className="btn btn-primary btn-small" data-testid="learn-save" disabled={busy !== null || saved} onClick={() => act({ kind: 'save', id: appId, name: { en: name.en, 'zh-CN': name.zh } })}>
              {t('learn.save.button')}
            </button>
            {view?.saved && (
              <div className="learn-ok" role="status" data-testid="learn-saved">
                {t('learn.saved', { name: name.en, file: view.saved.file })}
              </div>
            )}
          </section>
        )}

        {problem && (
          <div className="field-error learn-problem" role="alert" data-testid="learn-problem" data-code={problem.code}>
            {t(`learn.problem.${problem.code}`, problem.params)}
          </div>
        )}
        {error && (
          <div className="field-error learn-problem" role="alert" data-testid="learn-error">
            {t.error(error)}
          </div>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" data-testid="learn-close" onClick={() => onClose(saved)}>
          {t('learn.close')}
        </button>
      </div>
    </Dialog>
  )
}
