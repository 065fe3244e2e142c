import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireCapability } from './capability'

/**
 * A real pseudo-terminal pair from socat, linked at `a` and `b` in a temp folder: what one end
 * writes, the other reads — a serial cable in software. Killing socat is unplugging it.
 */
export interface PtyPair {
  a: string
  b: string
  /** Kills socat (the "device" goes away) and waits until it has exited. */
  unplug(): Promise<void>
  dispose(): Promise<void>
}

export function requireSocat(): boolean {
  const found = spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0
  return requireCapability('socat', found, 'apt-get install socat')
}

export async function startPtyPair(): Promise<PtyPair> {
  const dir = mkdtempSync(join(tmpdir(), 'deskclaw-pty-'))
  const a = join(dir, 'ttyV0')
  const b = join(dir, 'ttyV1')
  const socat: ChildProcess = spawn('socat', [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => socat.once('exit', () => resolve()))
  const until = Date.now() + 10_000
  while (!(existsSync(a) && existsSync(b))) {
    if (Date.now() > until) throw new Error('socat did not create the pty pair within 10 s')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const unplug = async () => {
    if (socat.exitCode === null && socat.signalCode === null) socat.kill('SIGKILL')
    await exited
  }
  return {
    a,
    b,
    unplug,
    async dispose() {
      await unplug()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** The other end of the cable: answers "OK\r\n" to every line ending in CR LF (a modem saying AT OK). */
export async function startEchoModem(path: string): Promise<{ lines: string[]; close(): Promise<void> }> {
  const { SerialPort } = await import('serialport')
  const port = await new Promise<InstanceType<typeof SerialPort>>((resolve, reject) => {
    const opened = new SerialPort({ path, baudRate: 115_200, lock: false }, (error) => (error ? reject(error) : resolve(opened)))
  })
  const lines: string[] = []
  let pending = ''
  port.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8')
    let end: number
    while ((end = pending.indexOf('\r\n')) >= 0) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 2)
      lines.push(line)
      port.write('OK\r\n')
    }
  })
  port.on('error', () => {})
  return {
    lines,
    close: () => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve()))
  }
}
