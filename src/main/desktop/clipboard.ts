/**
 * The system clipboard, for pasting text the driver cannot type and for the clipboard tools
 * (docs/desktop.md, "Typing text"). It lives in the app, not the driver: in Electron the clipboard
 * is the main process's; under Node the platform's clipboard commands serve it.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** What the clipboard held, to put back after a paste. */
export interface ClipboardSnapshot {
  /** e.g. "text (12 characters)", "an image (image/png)", "nothing". */
  readonly description: string
  restore(): Promise<void>
}

export interface DesktopClipboard {
  readText(): Promise<string>
  writeText(text: string): Promise<void>
  save(): Promise<ClipboardSnapshot>
}

export class ClipboardUnavailableError extends Error {}

interface CommandResult {
  code: number | null
  stdout: Buffer
  stderr: string
}

function run(argv: string[], env: NodeJS.ProcessEnv, input?: Uint8Array | string, detachOutput = false): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    // xclip and wl-copy leave a process behind that serves the selection: it must not hold our pipes open.
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['pipe', detachOutput ? 'ignore' : 'pipe', detachOutput ? 'ignore' : 'pipe'] })
    const out: Buffer[] = []
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: stderr.trim() }))
    child.stdin?.on('error', () => {})
    child.stdin?.end(input ?? '')
  })
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)))
}

/** X11 through xclip (or xsel for text only). Image contents are saved and restored as PNG. */
class XclipClipboard implements DesktopClipboard {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private async targets(): Promise<string[]> {
    const result = await run(['xclip', '-selection', 'clipboard', '-o', '-t', 'TARGETS'], this.env)
    return result.code === 0 ? result.stdout.toString().split('\n').map((t) => t.trim()).filter(Boolean) : []
  }

  async readText(): Promise<string> {
    const targets = await this.targets()
    if (!targets.some((t) => t === 'UTF8_STRING' || t === 'STRING' || t === 'TEXT' || t.startsWith('text/plain'))) return ''
    const result = await run(['xclip', '-selection', 'clipboard', '-o', '-t', 'UTF8_STRING'], this.env)
    return result.code === 0 ? result.stdout.toString('utf8') : ''
  }

  async writeText(text: string): Promise<void> {
    await this.write(Buffer.from(text, 'utf8'), 'UTF8_STRING')
  }

  private async write(data: Uint8Array, target: string): Promise<void> {
    const result = await run(['xclip', '-selection', 'clipboard', '-t', target, '-i'], this.env, data, true)
    if (result.code !== 0) throw new ClipboardUnavailableError(`xclip could not set the clipboard (exit ${result.code})`)
  }

  async save(): Promise<ClipboardSnapshot> {
    const targets = await this.targets()
    const image = targets.find((t) => t === 'image/png')
    if (image) {
      const bytes = (await run(['xclip', '-selection', 'clipboard', '-o', '-t', image], this.env)).stdout
      return { description: `an image (${image})`, restore: () => this.write(bytes, image) }
    }
    const text = await this.readText()
    if (text === '' && targets.length === 0) return { description: 'nothing', restore: () => this.write(Buffer.alloc(0), 'UTF8_STRING') }
    return { description: `text (${[...text].length} characters)`, restore: () => this.writeText(text) }
  }
}

/** A text-only clipboard through a read command and a write command (xsel, wl-clipboard, pbcopy, PowerShell). */
class CommandClipboard implements DesktopClipboard {
  constructor(
    private readonly readArgv: string[],
    private readonly writeArgv: string[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly detachWriter: boolean
  ) {}

  async readText(): Promise<string> {
    const result = await run(this.readArgv, this.env)
    return result.code === 0 ? result.stdout.toString('utf8').replace(/\r\n$/, '') : ''
  }

  async writeText(text: string): Promise<void> {
    const result = await run(this.writeArgv, this.env, text, this.detachWriter)
    if (result.code !== 0) throw new ClipboardUnavailableError(`${this.writeArgv[0]} could not set the clipboard (exit ${result.code}): ${result.stderr}`)
  }

  async save(): Promise<ClipboardSnapshot> {
    const text = await this.readText()
    return { description: `text (${[...text].length} characters)`, restore: () => this.writeText(text) }
  }
}

/** The clipboard this machine offers under plain Node, or an error that says what to install. */
export function systemClipboard(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): DesktopClipboard {
  if (platform === 'darwin') return new CommandClipboard(['pbpaste'], ['pbcopy'], env, false)
  if (platform === 'win32') {
    const ps = ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command']
    return new CommandClipboard([...ps, 'Get-Clipboard -Raw'], [...ps, '$input | Out-String -NoNewline | Set-Clipboard'], env, false)
  }
  if (env.DISPLAY && onPath('xclip', env)) return new XclipClipboard(env)
  if (env.DISPLAY && onPath('xsel', env)) return new CommandClipboard(['xsel', '--clipboard', '--output'], ['xsel', '--clipboard', '--input'], env, true)
  if (env.WAYLAND_DISPLAY && onPath('wl-copy', env)) return new CommandClipboard(['wl-paste', '--no-newline'], ['wl-copy'], env, true)
  return unavailableClipboard(
    env.DISPLAY || env.WAYLAND_DISPLAY
      ? 'no clipboard program found: install xclip (or xsel; wl-clipboard on Wayland)'
      : 'no display, so no clipboard'
  )
}

export function unavailableClipboard(why: string): DesktopClipboard {
  const fail = (): never => {
    throw new ClipboardUnavailableError(`clipboard unavailable: ${why}`)
  }
  return { readText: async () => fail(), writeText: async () => fail(), save: async () => fail() }
}
