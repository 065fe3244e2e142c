import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A small tmpfs of our own: a disk that fills up, or read-only media (tests only; needs root). */
export interface TmpfsMount {
  dir: string
  remountReadOnly(): void
  remountReadWrite(): void
  unmount(): void
}

/** Mounts a tmpfs of `sizeBytes`; a string says why it could not (not root, no mount permission). */
export function mountTmpfs(sizeBytes: number): TmpfsMount | string {
  if (process.platform !== 'linux') return 'tmpfs mounts are a Linux feature'
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  const dir = mkdtempSync(join(tmpdir(), 'deskclaw-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`
  }
  let mounted = true
  return {
    dir,
    remountReadOnly: () => execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' }),
    remountReadWrite: () => execFileSync('mount', ['-o', 'remount,rw', dir], { stdio: 'pipe' }),
    unmount: () => {
      if (!mounted) return
      mounted = false
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
