import fs from 'node:fs'
import { RUN_MARKER_VARIABLE } from './run-marker'

/** A forking stray can start a child between two scans; a few rounds catch the grandchildren too. */
const MAX_KILL_ROUNDS = 5

/** Matches one environment entry of `/proc/<pid>/environ`. */
export type MarkerMatch = { exact: string } | { prefix: string }

/**
 * Pids of this user's processes whose environment carries the run marker (docs/runtimes.md,
 * "A run owns its processes"). Linux only (`/proc/<pid>/environ`); elsewhere none are found.
 * The environment read is the one the process started with, so a child that dropped the
 * variable from its own environment before exec is not found.
 */
export function findMarkedProcesses(match: MarkerMatch): number[] {
  if (process.platform !== 'linux') return []
  const uid = process.getuid?.()
  const wanted = 'exact' in match ? `${RUN_MARKER_VARIABLE}=${match.exact}` : `${RUN_MARKER_VARIABLE}=${match.prefix}`
  const found: number[] = []
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc')
  } catch {
    return []
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (pid === process.pid) continue
    try {
      if (uid !== undefined && fs.statSync(`/proc/${entry}`).uid !== uid) continue
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1')
      // A substring test first: most processes do not carry the marker at all.
      if (!environ.includes(wanted)) continue
      if (environ.split('\0').some((variable) => ('exact' in match ? variable === wanted : variable.startsWith(wanted)))) found.push(pid)
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}

/** SIGKILLs every process carrying the marker, scanning again until none is left; returns how many were killed. */
export function killMarkedProcesses(match: MarkerMatch): number {
  const killed = new Set<number>()
  for (let round = 0; round < MAX_KILL_ROUNDS; round++) {
    const pids = findMarkedProcesses(match)
    if (pids.length === 0) break
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL')
        killed.add(pid)
      } catch {
        // Already gone.
      }
    }
  }
  return killed.size
}
