/**
 * `deskclaw desktop learn` (docs/cli.md, docs/desktop.md "Teach DeskClaw a new app"): the wizard
 * on the terminal — the same sessions Settings → Chat apps → Add an app drives. Each answer comes
 * from a flag or, on a terminal, is asked; a wrong answer is said in one line and asked again (or,
 * without a terminal, ends the command with exit 1). Nothing is ever sent: the dry send stops at
 * its approval and puts the old draft back.
 */
import { createInterface, type Interface } from 'node:readline/promises'
import type { LearnAction, LearnProblem, LearnView } from '../../shared/bridge/desktop-learn'
import { DeskclawApp, defaultDataDir, settingsFromEnv } from '../app'
import { DRY_RUN_REASON, suggestId } from '../chat-apps'
import { keyNameTable } from '../desktop'
import { EXIT } from './help'
import type { LearnArgs } from './learn-args'

export const LEARN_HELP = `deskclaw desktop learn — teach DeskClaw a new chat app (docs/desktop.md, "Teach DeskClaw a new app")

  --window TITLE      the app's window, exactly as \`deskclaw desktop windows\` lists it
  --search-key KEY    the key that opens the app's search (e.g. ctrl+f; names as in docs/desktop.md "Key names")
  --send-key KEY      the key that sends a message (enter, or ctrl+enter)
  --chat NAME         one chat the app shows, exactly as it shows it
  --try-chat NAME     the chat for the dry send (default: --chat); nothing is sent
  --try-text TEXT     the draft the dry send pastes and reads back (then puts the old draft back)
  --id ID             the profile's id (lower-case letters, digits, dashes)
  --name NAME         its name in English; --name-zh in Chinese (default: the English one)
  --data-dir DIR      where your profiles are saved (<data folder>/desktop-apps)

What is not given is asked on the terminal. Exit 0 when the profile was saved.
`

/** The English sentence for a refused step (the Settings wizard says it in the UI's language). */
export function learnProblemText(p: LearnProblem): string {
  const q = p.params
  switch (p.code) {
    case 'out_of_order':
      return `that step comes later (now: ${q.stage})`
    case 'desktop_unavailable':
      return `desktop unavailable: ${q.detail}`
    case 'no_window':
      return `no open window is titled exactly "${q.title}"`
    case 'title_is_chat':
      return `the window "${q.title}" is titled with the chat's name alone; choose the app's main window`
    case 'bad_key':
      return `the ${q.which} key: ${q.detail}`
    case 'empty_chat':
      return 'give a chat name, exactly as the app shows it'
    case 'chat_not_found':
      return `no chat in the app's list is named exactly "${q.chat}"${q.similar ? ` (similar: ${q.similar})` : ''}`
    case 'chat_ambiguous':
      return `several chats in the app's list are named exactly "${q.chat}"; choose a chat whose name is unique`
    case 'dry_run_failed':
      return `the dry send did not get through: ${q.reason}`
    case 'bad_id':
      return `"${q.id}" is not an id: lower-case letters, digits and dashes, at most 40`
    case 'id_taken':
      return `a profile "${q.id}" exists already; choose another id`
    case 'bad_name':
      return 'give the app a name'
    case 'invalid_profile':
      return `the profile would not load: ${q.detail}`
    case 'save_failed':
      return `the profile could not be saved: ${q.detail}`
    case 'no_session':
      return 'the wizard session has ended'
  }
}

export async function learnCommand(args: LearnArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(LEARN_HELP)
    return EXIT.done
  }
  const app = DeskclawApp.create({ dataDir: args.dataDir ?? defaultDataDir(), overrides: settingsFromEnv(process.env), startMcpServers: false })
  const tty = process.stdin.isTTY && process.stderr.isTTY
  const rl: Interface | null = tty ? createInterface({ input: process.stdin, output: process.stderr }) : null
  const say = (line: string) => process.stderr.write(line + '\n')
  /** The flag's answer once; then (on a terminal) the person's, until a step takes it. */
  const ask = async (given: string | undefined, question: string, fallback?: string): Promise<string | null> => {
    if (given !== undefined) return given
    if (!rl) return fallback ?? null
    const answer = (await rl.question(`${question}${fallback ? ` [${fallback}]` : ''}: `)).trim()
    return answer || fallback || ''
  }
  let view: LearnView = await app.learn.start()
  const step = async (makeAction: (retry: boolean) => Promise<LearnAction | null>): Promise<boolean> => {
    for (let retry = false; ; retry = true) {
      const action = await makeAction(retry)
      if (!action) {
        say('deskclaw: desktop learn: an answer is missing (give it as a flag, or run on a terminal)')
        return false
      }
      view = await app.learn.act(view.sessionId, action)
      if (!view.problem) return true
      say(`✗ ${learnProblemText(view.problem)}`)
      if (!rl || view.problem.code === 'desktop_unavailable') return false
    }
  }
  try {
    if (view.problem) {
      say(`deskclaw: ${learnProblemText(view.problem)}`)
      return EXIT.failed
    }
    // 1. The window.
    const windowOk = await step(async (retry) => {
      if (!args.window || retry) {
        say('The open windows:')
        view.windows.forEach((w, i) => say(`  ${String(i + 1).padStart(2)}. ${w.title}${w.app ? `  (${w.app})` : ''}`))
      }
      const answer = await ask(retry ? undefined : args.window, "The app's window (its number or title)")
      if (answer === null) return null
      const n = Number(answer)
      const title = Number.isInteger(n) && n >= 1 && n <= view.windows.length ? view.windows[n - 1]!.title : answer
      return { kind: 'window', title }
    })
    if (!windowOk) return EXIT.failed
    say(`✓ window: "${view.window!.title}"`)

    // 2. The keys, by their documented names.
    const keysOk = await step(async (retry) => {
      if (rl && (retry || !args.searchKey || !args.sendKey)) {
        const names = keyNameTable().filter((k) => !/^(f\d+|kp\d|[a-z0-9])$/.test(k.name)).map((k) => k.name)
        say(`Key names: letters, digits, f1…f24, ${names.join(', ')}; combine with + (ctrl+f).`)
      }
      const search = await ask(retry ? undefined : args.searchKey, "The app's search key (e.g. ctrl+f)")
      const send = await ask(retry ? undefined : args.sendKey, 'The key that sends a message', 'enter')
      return search === null || send === null ? null : { kind: 'keys', search, send }
    })
    if (!keysOk) return EXIT.failed
    say(`✓ keys: search ${view.keys!.search}, send ${view.keys!.send}`)

    // 3. One known chat: what the app shows of it.
    const chatOk = await step(async (retry) => {
      const name = await ask(retry ? undefined : args.chat, 'One chat the app shows, exactly as it shows it')
      return name === null ? null : { kind: 'chat', name }
    })
    if (!chatOk) return EXIT.failed
    const f = view.findings!
    if (f.via === 'accessibility') {
      say('✓ found through the accessibility tree:')
      for (const e of f.elements) say(`    ${e.kind.replace('_', ' ')}: ${e.role} "${e.name}" in "${e.window}"`)
    } else {
      say('✓ no accessibility tree: the screen will be read (the dry send shows what it read)')
    }
    say(`    window: ${f.titlePattern ? `title matching ${f.titlePattern}` : `titled ${f.titles.map((t) => `"${t}"`).join(', ')}`}${f.headerExtras.length ? `; the chat's name = the title without ${f.headerExtras.map((x) => `/${x}/`).join(' and ')}` : ''}`)

    // 4. The dry send: everything up to the send key, then the draft put back.
    const dryOk = await step(async (retry) => {
      const target = await ask(retry ? undefined : args.tryChat, 'The chat for the dry send (nothing is sent)', view.chat)
      if (target === null) return null
      const text = (await ask(retry ? undefined : args.tryText, 'The draft to paste and read back', 'DeskClaw dry run — not sent')) ?? ''
      return { kind: 'dry_run', target, text }
    })
    if (view.dryRun) {
      for (const s of view.dryRun.steps) {
        // The approval the dry run refuses is where it stops on purpose.
        if (s.step === 'approved' && s.detail === DRY_RUN_REASON) say('    ■ stopped before the send key (dry run)')
        else say(`    ${s.ok ? '✓' : '✗'} ${s.step.replace(/_/g, ' ')}${s.detail ? `: ${s.detail}` : ''}`)
      }
    }
    if (!dryOk || !view.dryRun?.passed) {
      say(`deskclaw: the dry send did not get through${view.dryRun?.reason ? `: ${view.dryRun.reason}` : ''}; nothing was saved`)
      return EXIT.failed
    }
    say(`✓ dry send into "${view.dryRun.target}": searched, opened, header checked, draft set and read back, old draft put back; nothing sent`)

    // 5. Save.
    const saved = await step(async (retry) => {
      const name = await ask(retry ? undefined : args.name, "The app's name")
      if (name === null) return null
      const id = await ask(retry ? undefined : args.id, 'Its id', suggestId(name))
      const zh = (await ask(retry ? undefined : args.nameZh, 'Its name in Chinese', name)) ?? name
      return id === null ? null : { kind: 'save', id, name: { en: name, 'zh-CN': zh } }
    })
    if (!saved) return EXIT.failed
    process.stdout.write(`Saved the profile "${view.saved!.id}" to ${view.saved!.file}\nEnable it with: deskclaw desktop enable ${view.saved!.id}\n`)
    return EXIT.done
  } finally {
    rl?.close()
    app.learn.close(view.sessionId)
    await app.close()
  }
}
