/**
 * The sections of Settings that keep their own copy of what they edit (Web, Checkpoints, Project
 * checks) tell the form whether they hold unsaved changes and how to save them, so that the footer's
 * Save saves every section and Close asks before any of them loses an edit (docs/ui.md, "Settings").
 */
import { useCallback, useEffect, useRef, useState } from 'react'

/** A section's unsaved edits: whether there are any, and how to save them (true when saved). */
export interface PendingSection {
  dirty: boolean
  save(): Promise<boolean>
}

export interface PendingSections {
  /** Some section holds unsaved changes. */
  dirty: boolean
  /** Saves every section that holds changes; true when each was saved. */
  saveAll(): Promise<boolean>
  /** A section reports itself (see usePendingSection). */
  report(name: string, section: PendingSection | null): void
}

export function usePendingSections(): PendingSections {
  const sections = useRef(new Map<string, PendingSection>())
  const [dirtyNames, setDirtyNames] = useState<readonly string[]>([])
  const report = useCallback((name: string, section: PendingSection | null) => {
    if (section) sections.current.set(name, section)
    else sections.current.delete(name)
    const dirty = section?.dirty ?? false
    setDirtyNames((names) => (names.includes(name) === dirty ? names : dirty ? [...names, name] : names.filter((n) => n !== name)))
  }, [])
  const saveAll = async () => {
    let ok = true
    for (const section of [...sections.current.values()]) {
      if (section.dirty && !(await section.save())) ok = false
    }
    return ok
  }
  return { dirty: dirtyNames.length > 0, saveAll, report }
}

/** Reports a section's unsaved changes and its save to the form, kept current on every render. */
export function usePendingSection(pending: PendingSections | undefined, name: string, dirty: boolean, save: () => Promise<boolean>): void {
  const latest = useRef(save)
  latest.current = save
  const report = pending?.report
  useEffect(() => {
    report?.(name, { dirty, save: () => latest.current() })
  }, [report, name, dirty])
  useEffect(() => () => report?.(name, null), [report, name])
}
