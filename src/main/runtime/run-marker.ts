import { randomBytes } from 'node:crypto'

/**
 * Every host command carries `DESKCLAW_RUN_ID=<app run>.<command number>` in its environment
 * (docs/runtimes.md, "A run owns its processes"). Children inherit it, also the ones that leave
 * the command's process group (`setsid`, `nohup … &`, a double fork), so the marker finds them
 * when the command ends, and the watchdog finds every command's leftovers when the app dies.
 * It names nothing secret.
 */
export const RUN_MARKER_VARIABLE = 'DESKCLAW_RUN_ID'

/** This app process's part of every marker: its pid and a random tag, so two apps never match each other. */
export const APP_RUN_ID = `${process.pid}-${randomBytes(6).toString('hex')}`

let commandsStarted = 0

/** A fresh marker value for one command. */
export function nextCommandMarker(): string {
  commandsStarted += 1
  return `${APP_RUN_ID}.${commandsStarted}`
}

/** Every marker of this app starts with this (what the watchdog looks for). */
export const APP_MARKER_PREFIX = `${APP_RUN_ID}.`
