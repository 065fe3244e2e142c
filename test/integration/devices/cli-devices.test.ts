import { spawn, spawnSync } from 'node:child_process'
import { SerialPort } from 'serialport'
import { describe, expect, it } from 'vitest'
import { cliPath, requireBuiltCli } from '../../helpers/cli'
import { requireSocat, startEchoModem, startPtyPair } from '../../helpers/pty-pair'

// `deskclaw devices` and `deskclaw serial` as users and scripts run them (docs/cli.md).
const available = requireSocat()
const run = (...args: string[]) => spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', timeout: 30_000 })
const runAsync = (...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', (status) => resolve({ status, stdout, stderr }))
  })

describe.skipIf(!available)('deskclaw devices and deskclaw serial', () => {
  requireBuiltCli()

  it('lists serial ports and an added port, and says why each missing backend is missing; nothing crashes', async () => {
    const pty = await startPtyPair()
    try {
      const human = run('devices', '--port', pty.a, '--port', '/dev/does-not-exist')
      expect(human.status).toBe(0)
      expect(human.stderr).toBe('')
      expect(human.stdout).toContain(`Virtual port ${pty.a}`)
      expect(human.stdout).not.toContain('/dev/does-not-exist')
      const json = JSON.parse(run('devices', '--json', '--port', pty.a).stdout) as { devices: Array<{ ports: string[]; connection: string }>; backends: Array<{ backend: string; available: boolean; why?: string }> }
      expect(json.devices).toContainEqual(expect.objectContaining({ ports: [pty.a], connection: 'virtual' }))
      expect(json.backends.map((b) => b.backend)).toEqual(['usb', 'hid', 'serial'])
      expect(json.backends.find((b) => b.backend === 'serial')?.available).toBe(true)
      for (const backend of json.backends.filter((b) => !b.available)) {
        expect(backend.why, backend.backend).toBeTruthy()
        expect(human.stdout).toContain(`${backend.backend}: unavailable: ${backend.why}`)
      }
    } finally {
      await pty.dispose()
    }
  })

  it('serial --send --expect exits 0 when the answer came in time, 1 with one line otherwise', async () => {
    const pty = await startPtyPair()
    const modem = await startEchoModem(pty.b)
    try {
      const good = await runAsync('serial', pty.a, '--send', 'AT', '--expect', 'OK', '--timeout', '3000')
      expect(good).toMatchObject({ status: 0, stderr: '' })
      expect(good.stdout).toMatch(new RegExp(`^ok: "OK" arrived from ${pty.a.replace(/[/.]/g, '\\$&')} after \\d+ ms\\n$`))
      const silent = await runAsync('serial', pty.a, '--send', 'AT', '--expect', 'READY', '--timeout', '300')
      expect(silent.status).toBe(1)
      expect(silent.stdout).toMatch(/^no "READY" from .* within 300 ms; received "OK\\r\\n"\n$/)

      // Busy: another program holds the port with a lock.
      const holder = await new Promise<SerialPort>((resolve, reject) => {
        const port = new SerialPort({ path: pty.a, baudRate: 115200, lock: true }, (error) => (error ? reject(error) : resolve(port)))
      })
      const busy = await runAsync('serial', pty.a, '--send', 'AT', '--expect', 'OK')
      await new Promise<void>((resolve) => holder.close(() => resolve()))
      expect(busy.status).toBe(1)
      expect(busy.stderr).toMatch(new RegExp(`^deskclaw: ${pty.a.replace(/[/.]/g, '\\$&')} is busy`))
      expect(busy.stderr.trim().split('\n')).toHaveLength(1)
    } finally {
      await modem.close()
      await pty.dispose()
    }
    const missing = await runAsync('serial', '/dev/ttyDOESNOTEXIST', '--send', 'AT', '--expect', 'OK')
    expect(missing.status).toBe(1)
    expect(missing.stderr).toBe('deskclaw: /dev/ttyDOESNOTEXIST does not exist (unplugged, or a different name)\n')
  })
})
