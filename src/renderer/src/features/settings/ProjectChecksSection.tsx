/**
 * Settings → Project checks (docs/tools.md, "lint"): the lint, type-check and test commands of the
 * current workspace, used by the lint tool before what the project's manifests declare. An empty
 * field leaves that check to the manifests. Kept here until saved, by its own button or by the
 * form's Save, which saves every section (pending-sections.ts).
 */
import { useEffect, useId, useState } from 'react'
import type { ProjectCheckCommands, Settings } from '../../../../shared/bridge'
import { PROJECT_CHECK_COMMAND_MAX, SettingsSchema } from '../../../../shared/bridge/settings'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores/settings'
import { type PendingSections, usePendingSection } from './pending-sections'

const KINDS = ['lint', 'typecheck', 'test'] as const
type Kind = (typeof KINDS)[number]

function toFields(commands: ProjectCheckCommands | undefined): Record<Kind, string> {
  return { lint: commands?.lint ?? '', typecheck: commands?.typecheck ?? '', test: commands?.test ?? '' }
}

export function ProjectChecksSection({ settings, pending }: { settings: Settings; pending?: PendingSections }) {
  const t = useT()
  const id = useId()
  const update = useSettingsStore((state) => state.update)
  const workspace = settings.workspace
  const [fields, setFields] = useState<Record<Kind, string>>(() => toFields(settings.projectChecks[workspace]))
  const [problem, setProblem] = useState<string | null>(null)
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle')
  // Another workspace chosen (and saved), or its commands saved elsewhere: show them. Keyed by the
  // commands' text, so that another section's save (a new settings object) keeps edits made here.
  const savedKey = JSON.stringify(settings.projectChecks[workspace] ?? {})
  useEffect(() => setFields(toFields(JSON.parse(savedKey) as ProjectCheckCommands)), [workspace, savedKey])

  const savedFields = toFields(settings.projectChecks[workspace])
  const dirty = KINDS.some((kind) => fields[kind].trim() !== savedFields[kind])

  const save = async (): Promise<boolean> => {
    const fail = (message: string) => (setProblem(message), false)
    const commands: ProjectCheckCommands = {}
    for (const kind of KINDS) {
      const command = fields[kind].trim()
      if (command.length > PROJECT_CHECK_COMMAND_MAX) return fail(t('settings.checks.tooLong', { field: t(`settings.checks.${kind}`), max: PROJECT_CHECK_COMMAND_MAX }))
      if (command !== '') commands[kind] = command
    }
    const { [workspace]: _previous, ...others } = settings.projectChecks
    const projectChecks = Object.keys(commands).length > 0 ? { ...others, [workspace]: commands } : others
    const checked = SettingsSchema.shape.projectChecks.safeParse(projectChecks)
    if (!checked.success) return fail(t('settings.checks.failed', { message: checked.error.issues[0]?.message ?? 'invalid' }))
    setStatus('saving')
    const result = await update({ projectChecks })
    if (result.ok) {
      setProblem(null)
      setStatus('saved')
      return true
    }
    setStatus('idle')
    return fail(t('settings.checks.failed', { message: t.error(result.error) }))
  }
  usePendingSection(pending, 'checks', dirty, save)

  return (
    <section data-testid="project-checks-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('settings.section.checks')}</h3>
      <p className="field-hint">{t('settings.checks.intro')}</p>
      <p className="field-hint">
        {t('settings.checks.workspace')} <code data-testid="project-checks-workspace">{workspace}</code>
      </p>
      {KINDS.map((kind) => (
        <div className="field" key={kind}>
          <label className="field-label" htmlFor={`${id}-${kind}`}>
            {t(`settings.checks.${kind}`)}
          </label>
          <input
            id={`${id}-${kind}`}
            className="text-input mono"
            data-testid={`project-checks-${kind}`}
            value={fields[kind]}
            spellCheck={false}
            autoComplete="off"
            maxLength={PROJECT_CHECK_COMMAND_MAX}
            placeholder={t('settings.checks.placeholder')}
            onChange={(event) => {
              setFields({ ...fields, [kind]: event.target.value })
              setStatus('idle')
            }}
          />
        </div>
      ))}
      {problem && (
        <div className="field-error" role="alert" data-testid="project-checks-problem">
          {problem}
        </div>
      )}
      <div className="field-row">
        <button type="button" className="btn btn-small" data-testid="project-checks-save" disabled={status === 'saving'} onClick={() => void save()}>
          {t('settings.checks.save')}
        </button>
        {status === 'saved' && (
          <span className="field-hint" role="status" data-testid="project-checks-saved">
            {t('settings.checks.saved')}
          </span>
        )}
      </div>
    </section>
  )
}
