import { resolveSettings, settingsFromEnv } from '../app'
import { findBrowser, type FoundBrowser } from '../browser'
import { diagnoseDesktop, type DesktopCheck, type DesktopDiagnosis } from '../desktop'
import { diagnoseRuntimes, type RuntimeDiagnosis } from '../runtime'
import type { DoctorArgs } from './args'
import { EXIT, MAIN_HELP } from './help'

/** `deskclaw doctor`: what works on this machine. Exit 0 whatever it finds; the report says what to fix. */
export async function doctorCommand(args: DoctorArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const settings = resolveSettings({}, settingsFromEnv(process.env))
  const image = args.dockerImage ?? settings.dockerImage
  const [report, desktop] = await Promise.all([diagnoseRuntimes({ docker: { image } }), diagnoseDesktop()])
  process.stdout.write(formatDoctorReport(report, { json: args.json, desktop, browser: findBrowser(settings.browserPath) }))
  return EXIT.done
}

const LABELS: Record<RuntimeDiagnosis['name'], string> = {
  native: 'native',
  bwrap: 'bwrap',
  'sandbox-exec': 'sandbox-exec',
  docker: 'docker engine',
  'docker-image': 'docker image',
  auto: 'auto'
}

/**
 * `deskclaw doctor` output for diagnoseRuntimes(): one line per runtime (✓ ready / ✗ with the
 * reason), the `auto` choice last; or the report itself as JSON. Pure: the caller prints it.
 */
export function formatDoctorReport(
  report: readonly RuntimeDiagnosis[],
  options: { json: boolean; desktop?: DesktopDiagnosis; browser?: FoundBrowser }
): string {
  const { browser } = options
  if (options.json) return JSON.stringify({ runtimes: report, ...(options.desktop ? { desktop: options.desktop } : {}), ...(browser ? { browser } : {}) }, null, 2) + '\n'
  const width = Math.max(...report.map((entry) => LABELS[entry.name].length))
  const lines = report
    .filter((entry) => entry.name !== 'auto')
    .map((entry) => `  ${entry.ok ? '✓' : '✗'} ${LABELS[entry.name].padEnd(width)}  ${(entry.ok ? entry.detail : entry.reason) ?? ''}`.trimEnd())
  const auto = report.find((entry) => entry.name === 'auto')
  const runtimes = ['Runtimes (where shell commands run):', ...lines, ...(auto ? [`The "auto" setting ${auto.detail}.`] : [])]
  // The browser tools drive an installed browser, never a downloaded one (docs/tools.md, "Browser").
  const browserLines = browser ? ['', 'Browser (the browser tools):', `  ${browser.ok ? '✓' : '✗'} ${browser.ok ? browser.path : browser.reason}`] : []
  return [...runtimes, ...(options.desktop ? formatDesktop(options.desktop) : []), ...browserLines].join('\n') + '\n'
}

/** The desktop part: one line per check, with the fix under a failed one. */
function formatDesktop(desktop: DesktopDiagnosis): string[] {
  const checks: Array<[string, DesktopCheck]> = [
    ['display', desktop.display],
    ['capture', desktop.capture],
    ['input', desktop.input],
    ['windows', desktop.windows],
    ...(desktop.permissions
      ? ([
          ['accessibility', desktop.permissions.accessibility],
          ['screen recording', desktop.permissions.screenRecording]
        ] as Array<[string, DesktopCheck]>)
      : [])
  ]
  const width = Math.max(...checks.map(([label]) => label.length))
  const lines = checks.flatMap(([label, check]) => [
    `  ${check.ok ? '✓' : '✗'} ${label.padEnd(width)}  ${check.detail}`,
    ...(check.fix && !check.ok ? [`    ${' '.repeat(width)}  fix: ${check.fix}`] : [])
  ])
  return ['', `Desktop (screenshots, keyboard, mouse; display server: ${desktop.displayServer}):`, ...lines]
}
