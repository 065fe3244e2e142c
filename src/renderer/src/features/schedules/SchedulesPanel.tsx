/**
 * The Schedules panel (docs/tools.md, "Schedules"): every scheduled task with its next run and last
 * result (a link to its conversation); add and edit with presets or a raw cron field whose next three
 * times are shown; enable, disable, run now, delete; and what missed runs do.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react'
import type { Autonomy, MissedRunPolicy, ScheduledTask } from '../../../../shared/bridge'
import type { AppErrorShape } from '../../../../shared/errors'
import { getDeskclawApi } from '../../bridge'
import { useT } from '../../i18n'
import { selectConversation, useSettingsStore } from '../../stores'
import { Dialog, XIcon } from '../common'
import { presetOf, SCHEDULE_PRESETS, type SchedulePresetId } from './presets'

const AUTONOMIES: readonly Autonomy[] = ['readonly', 'supervised', 'full']

interface Draft {
  id: string | null
  name: string
  prompt: string
  workspace: string
  autonomy: Autonomy
  preset: SchedulePresetId
  cron: string
}

function TaskForm({ draft, onDone }: { draft: Draft; onDone(saved: boolean): void }) {
  const t = useT()
  const [form, setForm] = useState(draft)
  const [times, setTimes] = useState<number[]>([])
  const [cronError, setCronError] = useState<AppErrorShape | null>(null)
  const [error, setError] = useState<AppErrorShape | null>(null)
  const id = useId()
  const cron = form.preset === 'custom' ? form.cron : (SCHEDULE_PRESETS.find((p) => p.id === form.preset)!.cron ?? '')

  useEffect(() => {
    let live = true
    const timer = setTimeout(async () => {
      const result = await getDeskclawApi().invoke('schedules.preview', { schedule: { kind: 'cron', cron }, count: 3 })
      if (!live) return
      if (result.ok) {
        setTimes(result.data.times)
        setCronError(null)
      } else {
        setTimes([])
        setCronError(result.error)
      }
    }, 150)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [cron])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const input = { name: form.name, prompt: form.prompt, workspace: form.workspace, autonomy: form.autonomy, schedule: { kind: 'cron' as const, cron } }
    const api = getDeskclawApi()
    const result = form.id ? await api.invoke('schedules.update', { id: form.id, change: input }) : await api.invoke('schedules.add', { ...input, enabled: true })
    if (result.ok) onDone(true)
    else setError(result.error)
  }
  const time = (at: number) => new Intl.DateTimeFormat(t.language, { dateStyle: 'medium', timeStyle: 'short' }).format(at)

  return (
    <form className="schedule-form" data-testid="schedule-form" onSubmit={(event) => void submit(event)}>
      <label className="field">
        <span className="field-label">{t('schedules.name')}</span>
        <input className="text-input" data-testid="schedule-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
      </label>
      <label className="field">
        <span className="field-label">{t('schedules.prompt')}</span>
        <textarea className="text-input" data-testid="schedule-prompt" rows={3} value={form.prompt} onChange={(e) => setForm({ ...form, prompt: e.target.value })} required />
      </label>
      <label className="field">
        <span className="field-label">{t('schedules.when')}</span>
        <select className="text-input" data-testid="schedule-preset" value={form.preset} onChange={(e) => setForm({ ...form, preset: e.target.value as SchedulePresetId, cron: form.preset === 'custom' ? form.cron : cron })}>
          {SCHEDULE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {t(`schedules.preset.${p.id}`)}
            </option>
          ))}
        </select>
      </label>
      {form.preset === 'custom' && (
        <label className="field">
          <span className="field-label">{t('schedules.cron')}</span>
          <input className="text-input" data-testid="schedule-cron" value={form.cron} onChange={(e) => setForm({ ...form, cron: e.target.value })} aria-describedby={`${id}-next`} />
        </label>
      )}
      <div id={`${id}-next`} className="field-hint" data-testid="schedule-next" aria-live="polite">
        {cronError ? <span className="field-error">{t.error(cronError)}</span> : times.length > 0 ? t('schedules.nextTimes', { times: times.map(time).join(' · ') }) : null}
      </div>
      <label className="field">
        <span className="field-label">{t('schedules.workspace')}</span>
        <input className="text-input" data-testid="schedule-workspace" value={form.workspace} onChange={(e) => setForm({ ...form, workspace: e.target.value })} required />
      </label>
      <label className="field">
        <span className="field-label">{t('schedules.autonomy')}</span>
        <select className="text-input" data-testid="schedule-autonomy" value={form.autonomy} onChange={(e) => setForm({ ...form, autonomy: e.target.value as Autonomy })}>
          {AUTONOMIES.map((a) => (
            <option key={a} value={a}>
              {t(`schedules.autonomy.${a}`)}
            </option>
          ))}
        </select>
      </label>
      {error && <p className="field-error" role="alert">{t.error(error)}</p>}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => onDone(false)}>
          {t('schedules.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" data-testid="schedule-save" disabled={cronError !== null}>
          {t('schedules.save')}
        </button>
      </div>
    </form>
  )
}

function TaskRow({ task, onChanged, onEdit, onClose }: { task: ScheduledTask; onChanged(): void; onEdit(): void; onClose(): void }) {
  const t = useT()
  const api = getDeskclawApi()
  const time = (at: number) => new Intl.DateTimeFormat(t.language, { dateStyle: 'medium', timeStyle: 'short' }).format(at)
  const when = task.schedule.kind === 'cron' ? (presetOf(task.schedule.cron) === 'custom' ? task.schedule.cron : t(`schedules.preset.${presetOf(task.schedule.cron)}`)) : time(task.schedule.at)
  const last = task.lastRun
  return (
    <li className="schedule-row" data-testid="schedule-row" data-task-id={task.id} data-enabled={String(task.enabled)}>
      <div className="schedule-row-head">
        <strong>{task.name}</strong>
        <span className="field-hint">{when}</span>
      </div>
      <div className="field-hint" data-testid="schedule-row-next">
        {task.nextRunAt ? t('schedules.next', { time: time(task.nextRunAt) }) : t('schedules.noNext')}
      </div>
      <div className="field-hint" data-testid="schedule-row-last" data-status={last?.status ?? 'never'}>
        {last ? t(`schedules.last.${last.status}`, { time: time(last.at) }) : t('schedules.never')}
        {last?.conversationId && (
          <button
            type="button"
            className="btn btn-link"
            data-testid="schedule-open-run"
            onClick={() => {
              void selectConversation(last.conversationId)
              onClose()
            }}
          >
            {t('schedules.openRun')}
          </button>
        )}
      </div>
      <div className="schedule-row-actions">
        <label>
          <input type="checkbox" data-testid="schedule-enabled" checked={task.enabled} onChange={async (e) => void ((await api.invoke('schedules.update', { id: task.id, change: { enabled: e.target.checked } })), onChanged())} />
          {t('schedules.enabled')}
        </label>
        <button type="button" className="btn" data-testid="schedule-run-now" onClick={async () => void ((await api.invoke('schedules.runNow', { id: task.id })), onChanged())}>
          {t('schedules.runNow')}
        </button>
        <button type="button" className="btn" data-testid="schedule-edit" onClick={onEdit}>
          {t('schedules.edit')}
        </button>
        <button type="button" className="btn btn-danger" data-testid="schedule-delete" onClick={async () => void ((await api.invoke('schedules.remove', { id: task.id })), onChanged())}>
          {t('schedules.delete')}
        </button>
      </div>
    </li>
  )
}

export function SchedulesPanel({ onClose }: { onClose(): void }) {
  const t = useT()
  const titleId = useId()
  const settings = useSettingsStore((s) => s.settings)
  const updateSettings = useSettingsStore((s) => s.update)
  const [tasks, setTasks] = useState<ScheduledTask[] | null>(null)
  const [draft, setDraft] = useState<Draft | null>(null)
  const reload = useCallback(async () => {
    const result = await getDeskclawApi().invoke('schedules.list', {})
    if (result.ok) setTasks(result.data.tasks)
  }, [])
  useEffect(() => {
    void reload()
    // A run's end changes a task's last result: listen for the conversation list's news.
    const stop = getDeskclawApi().onEvent((event) => {
      if (event.kind === 'conversations_changed') void reload()
    })
    const timer = setInterval(() => void reload(), 2000)
    return () => {
      stop()
      clearInterval(timer)
    }
  }, [reload])
  const blank = (): Draft => ({ id: null, name: '', prompt: '', workspace: settings?.workspace ?? '', autonomy: 'supervised', preset: 'weekdays9', cron: '0 9 * * 1-5' })

  return (
    <Dialog labelledBy={titleId} className="memory-dialog" testId="schedules-panel" onBackdrop={onClose} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div className="settings-head">
        <h2 id={titleId} className="dialog-title">
          {t('schedules.title')}
        </h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t('schedules.close')} data-testid="schedules-close">
          <XIcon />
        </button>
      </div>
      <div className="memory-scroll">
        <p className="field-hint">{t('schedules.intro')}</p>
        {settings && (
          <label className="field">
            <span className="field-label">{t('schedules.missed')}</span>
            <select className="text-input" data-testid="schedule-missed" value={settings.scheduleMissedRuns} onChange={(e) => void updateSettings({ scheduleMissedRuns: e.target.value as MissedRunPolicy })}>
              <option value="catch_up">{t('schedules.missed.catch_up')}</option>
              <option value="skip">{t('schedules.missed.skip')}</option>
            </select>
          </label>
        )}
        {draft ? (
          <TaskForm
            draft={draft}
            onDone={(saved) => {
              setDraft(null)
              if (saved) void reload()
            }}
          />
        ) : (
          <button type="button" className="btn btn-primary" data-testid="schedule-add" onClick={() => setDraft(blank())}>
            {t('schedules.add')}
          </button>
        )}
        {tasks && tasks.length === 0 && !draft && <p className="memory-empty" data-testid="schedules-empty">{t('schedules.empty')}</p>}
        <ul className="memory-list" data-testid="schedule-list">
          {(tasks ?? []).map((task) => (
            <TaskRow
              key={`${task.id}:${task.updatedAt}:${task.lastRun?.status ?? ''}`}
              task={task}
              onChanged={() => void reload()}
              onClose={onClose}
              onEdit={() =>
                setDraft({
                  id: task.id,
                  name: task.name,
                  prompt: task.prompt,
                  workspace: task.workspace,
                  autonomy: task.autonomy,
                  preset: task.schedule.kind === 'cron' ? presetOf(task.schedule.cron) : 'custom',
                  cron: task.schedule.kind === 'cron' ? task.schedule.cron : ''
                })
              }
            />
          ))}
        </ul>
      </div>
    </Dialog>
  )
}
