/**
 * `deskclaw web` asks on its terminal before the browser switches to autonomy "full" or the
 * "native" runtime (docs/risk.md): the person who started the host confirms, not the page.
 */
import { createInterface } from 'node:readline/promises'
import type { SettingConfirmer } from '../app'

export const confirmOnTerminal: SettingConfirmer = async (changes) => {
  const lines = ['', '⚠ The browser UI asks to change a setting that removes a safety net:']
  for (const change of changes) lines.push(`  ${change.key}: ${change.from} → ${change.to}. ${change.why.en}`)
  process.stderr.write(lines.join('\n') + '\n')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = (await rl.question('Allow? [y/N] ')).trim().toLowerCase()
    return answer === 'y' || answer === 'yes'
  } finally {
    rl.close()
  }
}
