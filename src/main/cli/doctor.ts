import { resolveSettings, settingsFromEnv } from '../app'
import { diagnoseRuntimes, type RuntimeDiagnosis } from '../runtime'
import type { DoctorArgs } from './args'
import { EXIT, MAIN_HELP } from './help'

/** `deskclaw doctor`: what works on this machine. Exit 0 whatever it finds; the report says what to fix. */
export async function doctorCommand(args: DoctorArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const image = args.dockerImage ?? resolveSettings({}, settingsFromEnv(process.env)).dockerImage
  const report = await diagnoseRuntimes({ docker: { image } })
  process.stdout.write(formatDoctorReport(report, { json: args.json }))
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
export function formatDoctorReport(report: readonly RuntimeDiagnosis[], options: { json: boolean }): string {
  if (options.json) return JSON.stringify({ runtimes: report }, null, 2) + '\n'
  const width = Math.max(...report.map((entry) => LABELS[entry.name].length))
  const lines = report
    .filter((entry) => entry.name !== 'auto')
    .map((entry) => `  ${entry.ok ? '✓' : '✗'} ${LABELS[entry.name].padEnd(width)}  ${(entry.ok ? entry.detail : entry.reason) ?? ''}`.trimEnd())
  const auto = report.find((entry) => entry.name === 'auto')
  return ['Runtimes (where shell commands run):', ...lines, ...(auto ? [`The "auto" setting ${auto.detail}.`] : [])].join('\n') + '\n'
}
