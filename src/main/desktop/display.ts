/**
 * Which display server this machine has and whether the driver can use it (docs/desktop.md,
 * "Per-OS notes"). Checked before the driver process starts: libnut aborts the process without a
 * display, so "no display" and "Wayland without X" are said here, in words, instead.
 */
export type DisplayServer = 'x11' | 'xwayland' | 'wayland' | 'macos' | 'windows' | 'none'

export interface DisplayCheck {
  server: DisplayServer
  /** False when desktop tools cannot work here; `why` then says what is missing. */
  usable: boolean
  why?: string
  /** What the user can do about it. */
  fix?: string
}

export function checkDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): DisplayCheck {
  if (platform === 'darwin') return { server: 'macos', usable: true }
  if (platform === 'win32') return { server: 'windows', usable: true }
  const display = env.DISPLAY?.trim()
  const wayland = env.WAYLAND_DISPLAY?.trim() || env.XDG_SESSION_TYPE === 'wayland'
  if (display) return { server: wayland ? 'xwayland' : 'x11', usable: true }
  if (wayland) {
    return {
      server: 'wayland',
      usable: false,
      why: 'this is a Wayland session without X (DISPLAY is not set); input and capture need X11',
      fix: 'log in with an "X11"/"Xorg" session, or make XWayland available so DISPLAY is set'
    }
  }
  return {
    server: 'none',
    usable: false,
    why: 'no display (DISPLAY is not set)',
    fix: 'run DeskClaw inside a desktop session, or point DISPLAY at an X server (e.g. Xvfb)'
  }
}
