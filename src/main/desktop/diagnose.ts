/**
 * What `deskclaw doctor` says about the desktop (docs/desktop.md, "Per-OS notes"): the display
 * server, whether capture and input work (tried for real, harmlessly), whether windows can be
 * listed, and on macOS the two privacy permissions with how to grant them.
 */
import { errorMessage } from '../../shared'
import { checkDisplay, type DisplayServer } from './display'
import { DesktopDriver, type DesktopDriverOptions } from './driver-host'

export interface DesktopCheck {
  ok: boolean
  detail: string
  fix?: string
}

export interface DesktopDiagnosis {
  displayServer: DisplayServer
  display: DesktopCheck
  capture: DesktopCheck
  input: DesktopCheck
  windows: DesktopCheck
  permissions?: { accessibility: DesktopCheck; screenRecording: DesktopCheck }
}

const MAC_GRANT = 'System Settings → Privacy & Security → {pane}: turn on DeskClaw (or, for the CLI, the terminal app you run it from), then restart it'

export async function diagnoseDesktop(options: DesktopDriverOptions = {}): Promise<DesktopDiagnosis> {
  const env = options.env ?? process.env
  const display = checkDisplay(env, options.platform ?? process.platform)
  const skipped = (why: string): DesktopCheck => ({ ok: false, detail: why })
  if (!display.usable) {
    const why = display.why ?? 'no display'
    return { displayServer: display.server, display: { ok: false, detail: why, fix: display.fix }, capture: skipped('not tried: no display'), input: skipped('not tried: no display'), windows: skipped('not tried: no display') }
  }
  const driver = new DesktopDriver(options)
  try {
    let hello
    try {
      hello = await driver.hello()
    } catch (error) {
      const why = errorMessage(error)
      return { displayServer: display.server, display: { ok: false, detail: why }, capture: skipped('not tried'), input: skipped('not tried'), windows: skipped('not tried') }
    }
    const screen = `${hello.screen.width}×${hello.screen.height}${hello.screen.pixelDensity !== 1 ? ` (${hello.screen.pixelDensity}× pixels)` : ''}`
    const capture = await driver.request({ op: 'capture', region: { x: 0, y: 0, width: 16, height: 16 }, maxWidth: 64 }).then(
      (): DesktopCheck => ({ ok: true, detail: `screen ${screen}` }),
      (error: unknown): DesktopCheck => ({ ok: false, detail: errorMessage(error) })
    )
    // Putting the pointer where it already is proves input injection without moving anything.
    const input = await driver
      .request({ op: 'cursor' })
      .then((at) => driver.request({ op: 'move', to: at }))
      .then(
        (at): DesktopCheck => ({ ok: true, detail: `pointer at (${at.x}, ${at.y})` }),
        (error: unknown): DesktopCheck => ({ ok: false, detail: errorMessage(error) })
      )
    const windows: DesktopCheck = hello.windows.available
      ? await driver.request({ op: 'windows' }).then(
          (list): DesktopCheck => ({ ok: true, detail: `${list.length} window(s)` }),
          (error: unknown): DesktopCheck => ({ ok: false, detail: errorMessage(error) })
        )
      : { ok: false, detail: hello.windows.why ?? 'not available', fix: 'run a window manager (every desktop has one)' }
    const diagnosis: DesktopDiagnosis = { displayServer: display.server, display: { ok: true, detail: `${hello.displayServer} (${hello.platform})` }, capture, input, windows }
    if (hello.permissions) {
      const check = (status: string, pane: string): DesktopCheck =>
        status === 'authorized' ? { ok: true, detail: 'granted' } : { ok: false, detail: status, fix: MAC_GRANT.replace('{pane}', pane) }
      diagnosis.permissions = {
        accessibility: check(hello.permissions.accessibility, 'Accessibility'),
        screenRecording: check(hello.permissions.screenRecording, 'Screen Recording')
      }
    }
    return diagnosis
  } finally {
    await driver.close()
  }
}
