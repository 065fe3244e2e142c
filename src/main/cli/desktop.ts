/**
 * `deskclaw desktop …` (docs/cli.md, docs/desktop.md): the desktop driver from the terminal,
 * without a model — screenshots, windows, and sending a message into a chat app. Failures are one
 * line (`desktop unavailable: …`, `not sent: …`) and exit 1.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { resolveSettings, settingsFromEnv } from '../app'
import { DesktopService, type WindowInfo } from '../desktop'
import type { DesktopArgs } from './args'
import { chatAppsCommand, sendTextCommand, setChatAppEnabled } from './desktop-send-text'
import { accessibleTreeCommand } from './desktop-tree'
import { EXIT, MAIN_HELP } from './help'

export async function desktopCommand(args: DesktopArgs): Promise<number> {
  // learn has its own help (its flags are its own).
  if (args.action === 'learn') return (await import('./desktop-learn')).learnCommand(args.learn ?? { help: true })
  if (args.help || !args.action) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  if (args.action === 'apps') return chatAppsCommand(args)
  if (args.action === 'enable' || args.action === 'disable') return setChatAppEnabled(args, args.action === 'enable')
  if (args.action === 'send-text') return sendTextCommand(args)
  if (args.action === 'tree') return accessibleTreeCommand(args)
  const settings = resolveSettings({}, settingsFromEnv(process.env))
  const desktop = new DesktopService({ settings: () => settings })
  try {
    if (args.action === 'windows') {
      const windows = await desktop.windows()
      process.stdout.write(args.json ? JSON.stringify(windows, null, 2) + '\n' : formatWindows(windows))
      return EXIT.done
    }
    const shot = await desktop.screenshot(null, args.window ? { kind: 'window', title: args.window } : { kind: 'screen' }, args.maxWidth ?? settings.screenshotMaxWidth)
    if (args.output === '-') {
      process.stdout.write(shot.png)
      return EXIT.done
    }
    const file = resolve(args.output ?? `screenshot-${timestamp()}.png`)
    writeFileSync(file, shot.png)
    const of = shot.window ? `the window "${shot.window.title}"` : 'the screen'
    const scaled = shot.scale === 1 ? '' : ` (scaled from ${shot.area.width}×${shot.area.height})`
    process.stdout.write(`Saved a ${shot.width}×${shot.height} screenshot of ${of}${scaled} to ${file}\n`)
    return EXIT.done
  } finally {
    await desktop.shutdown()
  }
}

export function formatWindows(windows: WindowInfo[]): string {
  if (windows.length === 0) return 'No windows are open.\n'
  const lines = windows.map((w) => {
    const bounds = `${w.bounds.width}×${w.bounds.height}+${w.bounds.x}+${w.bounds.y}`
    return `${w.focused ? '*' : ' '} ${bounds.padEnd(20)} ${(w.app || '-').padEnd(16)} ${w.title}`
  })
  return [`  ${'BOUNDS'.padEnd(20)} ${'APP'.padEnd(16)} TITLE   (* has the focus)`, ...lines].join('\n') + '\n'
}

function timestamp(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`
}
