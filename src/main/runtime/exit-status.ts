import os from 'node:os'

/**
 * The signal behind a shell-style status (128 + n), e.g. 143 → SIGTERM. Sandboxes (bwrap,
 * docker exec) report a killed command that way, where native reports the signal itself.
 */
export function signalFromStatus(status: number | null): NodeJS.Signals {
  if (status === null || status <= 128) return 'SIGKILL'
  const found = Object.entries(os.constants.signals).find(([, number]) => number === status - 128)
  return (found?.[0] as NodeJS.Signals | undefined) ?? 'SIGKILL'
}
