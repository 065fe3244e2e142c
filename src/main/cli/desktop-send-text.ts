/**
 * `deskclaw desktop apps | enable APP | disable APP | send-text …` (docs/cli.md, docs/desktop.md,
 * "Sending messages"). send-text exits 0 only when the message was sent and verified; `not sent`
 * and `unknown` exit 1 with one line that says why.
 */
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { DeskclawApp, defaultDataDir, settingsFromEnv } from '../app'
import { reasonText, type SendConfirmation, type SendStep, type SendTextOutcome } from '../chat-apps'
import type { DesktopArgs } from './args'
import { EXIT } from './help'

function openApp(args: DesktopArgs): DeskclawApp {
  return DeskclawApp.create({ dataDir: args.dataDir ?? defaultDataDir(), overrides: settingsFromEnv(process.env), startMcpServers: false })
}

export async function chatAppsCommand(args: DesktopArgs): Promise<number> {
  const app = openApp(args)
  try {
    const { apps, problems } = app.chatApps()
    if (args.json) {
      process.stdout.write(JSON.stringify({ apps, problems }, null, 2) + '\n')
      return EXIT.done
    }
    const lines = [`  ${'ID'.padEnd(10)} ${'ENABLED'.padEnd(8)} ${'HERE'.padEnd(5)} ${'SOURCE'.padEnd(8)} NAME   ALLOWLIST`]
    for (const a of apps) {
      const allow = a.allowlist.length > 0 ? a.allowlist.join(', ') : 'any chat'
      lines.push(`  ${a.id.padEnd(10)} ${(a.enabled ? 'yes' : 'no').padEnd(8)} ${(a.supported ? 'yes' : 'no').padEnd(5)} ${a.source.padEnd(8)} ${a.name.en} (${a.name['zh-CN']})   ${allow}`)
    }
    for (const p of problems) lines.push(`! ${p.file}: ${p.error}`)
    lines.push('', 'Enable one with: deskclaw desktop enable ID')
    process.stdout.write(lines.join('\n') + '\n')
    return EXIT.done
  } finally {
    await app.close()
  }
}

export async function setChatAppEnabled(args: DesktopArgs, enabled: boolean): Promise<number> {
  const app = openApp(args)
  try {
    const id = args.app ?? ''
    const known = app.chatApps().apps.find((a) => a.id === id)
    if (!known) {
      process.stderr.write(`deskclaw: no chat app "${id}" (known: ${app.chatApps().apps.map((a) => a.id).join(', ')})\n`)
      return EXIT.failed
    }
    const current = app.settings().chatApps
    app.updateSettings({ chatApps: { ...current, [id]: { enabled, allowlist: current[id]?.allowlist ?? [] } } })
    process.stdout.write(`${known.name.en} is ${enabled ? 'enabled: the agent may send messages in it (asking first in supervised mode)' : 'disabled: nothing will be sent in it'}.\n`)
    return EXIT.done
  } finally {
    await app.close()
  }
}

export async function sendTextCommand(args: DesktopArgs): Promise<number> {
  const app = openApp(args)
  // The verdict in the user's language (Settings → language, from the system's locale by default).
  const language = app.settings().language
  const controller = new AbortController()
  const onSigint = () => controller.abort(new Error('stopped with Ctrl+C'))
  process.on('SIGINT', onSigint)
  try {
    const outcome = await app.chatSender.send({
      app: args.app!,
      to: args.to!,
      text: args.text!,
      watermark: args.watermark,
      profileFile: args.profile,
      runId: `cli-${process.pid}-${Date.now()}`,
      conversationId: 'cli',
      signal: controller.signal,
      confirm: (c) => confirmOnTerminal(c, args.approve),
      onStep: (step) => {
        if (!args.json) process.stderr.write(formatStep(step, language))
      }
    })
    if (args.json) process.stdout.write(JSON.stringify(toJson(outcome), null, 2) + '\n')
    else process.stdout.write(formatOutcome(outcome, language))
    if (controller.signal.aborted && outcome.status !== 'sent') return EXIT.cancelled
    return outcome.status === 'sent' ? EXIT.done : EXIT.failed
  } finally {
    process.off('SIGINT', onSigint)
    await app.close()
  }
}

async function confirmOnTerminal(c: SendConfirmation, mode: DesktopArgs['approve']) {
  if (mode === 'allow') return { allowed: true as const }
  if (mode === 'deny') return { allowed: false as const, reason: 'denied by --approve deny' }
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    return { allowed: false as const, reason: 'nobody can be asked on this terminal (use --approve allow to send without asking)' }
  }
  const image = join(tmpdir(), `deskclaw-send-${process.pid}.png`)
  writeFileSync(image, c.image.png)
  process.stderr.write(
    ['', `Send in ${c.app.name.en} to "${c.target}" (verified on screen):`, ...c.text.split('\n').map((l) => `  │ ${l}`), `The chat and the draft as on screen: ${image}`, ''].join('\n')
  )
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = (await rl.question('Send it? [y/N] ')).trim().toLowerCase()
    return answer === 'y' || answer === 'yes' ? { allowed: true as const } : { allowed: false as const, reason: 'the user said no' }
  } finally {
    rl.close()
  }
}

type Language = 'en' | 'zh-CN'

function formatStep(step: SendStep, language: Language): string {
  const detail = step.why ? reasonText(step.why, language) : step.detail
  return `${step.ok ? '✓' : '✗'} ${step.step.replace(/_/g, ' ')}${detail ? `: ${detail}` : ''}\n`
}

function formatOutcome(o: SendTextOutcome, language: Language): string {
  const seconds = (o.durationMs / 1000).toFixed(1)
  if (language === 'zh-CN') {
    if (o.status === 'sent') return `已发送给 ${o.appName} 中的“${o.target}”（${seconds} 秒）\n`
    return `${o.status === 'unknown' ? '未知' : '未发送'}：${o.why ? reasonText(o.why, language) : o.reason}\n`
  }
  if (o.status === 'sent') return `sent to "${o.target}" in ${o.appName} (${seconds} s)\n`
  return `${o.status === 'unknown' ? 'unknown' : 'not sent'}: ${o.reason}\n`
}

function toJson(o: SendTextOutcome) {
  return {
    status: o.status,
    reason: o.reason,
    ...(o.why ? { code: o.why.code, params: o.why.params } : {}),
    app: o.app,
    target: o.target,
    text: o.text,
    durationMs: o.durationMs,
    steps: o.steps.map((s) => ({ step: s.step, ok: s.ok, detail: s.detail }))
  }
}
