/**
 * `deskclaw devices [--json] [--watch] [--port PATH]…` and `deskclaw serial PORT …` (docs/cli.md,
 * docs/devices.md): what is plugged in, and a serial console for people and scripts. A port that
 * vanished, was never there or is busy is one error line, never a stack trace.
 */
import { createInterface } from 'node:readline'
import type { BackendStatus, Device, DeviceSnapshot } from '../../shared'
import { DeviceService, LINE_ENDINGS, SerialSessionError, unescapeSerialText } from '../devices'
import type { DevicesArgs, SerialArgs } from './args'
import { EXIT, MAIN_HELP } from './help'

export async function devicesCommand(args: DevicesArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const devices = new DeviceService({ settings: () => ({ serialPorts: args.ports }) })
  try {
    if (!args.watch) {
      const snapshot = await devices.list()
      process.stdout.write(args.json ? JSON.stringify(snapshot, null, 2) + '\n' : formatSnapshot(snapshot))
      return EXIT.done
    }
    let first = true
    const stop = devices.onChange(({ snapshot, added, removed }) => {
      if (args.json) {
        process.stdout.write(JSON.stringify({ event: first ? 'list' : 'change', added, removed, snapshot }) + '\n')
      } else if (first) {
        process.stdout.write(formatSnapshot(snapshot) + 'Watching for devices plugged in or out (Ctrl+C to stop)…\n')
      } else {
        const byId = new Map(snapshot.devices.map((device) => [device.id, device]))
        for (const id of added) process.stdout.write(`+ ${describe(byId.get(id)!)}\n`)
        for (const id of removed) process.stdout.write(`- ${id}\n`)
      }
      first = false
    })
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    stop()
    return EXIT.done
  } finally {
    await devices.shutdown()
  }
}

export function formatSnapshot(snapshot: DeviceSnapshot): string {
  const lines = snapshot.devices.length ? snapshot.devices.map((device) => `  ${describe(device)}`) : ['  (none)']
  const backends = snapshot.backends.filter((b) => !b.available).map(describeBackend)
  return ['Devices:', ...lines, ...(backends.length ? ['Not available:', ...backends] : [])].join('\n') + '\n'
}

function describe(device: Device): string {
  const ids = device.vendorId ? ` [${device.vendorId}:${device.productId ?? '????'}]` : ''
  const serial = device.serialNumber ? ` serial ${device.serialNumber}` : ''
  const unnamed = device.ports.filter((port) => !device.name.includes(port))
  const ports = unnamed.length ? `  ${unnamed.join(', ')}` : ''
  return `${device.name}${ids}${serial}${ports}  (${device.kinds.join('+')}, ${device.connection})`
}

function describeBackend(status: BackendStatus): string {
  return `  ${status.backend}: unavailable: ${status.why}${status.fix ? `\n    fix: ${status.fix}` : ''}`
}

export async function serialCommand(args: SerialArgs): Promise<number> {
  if (args.help || !args.port) {
    process.stdout.write(MAIN_HELP)
    return EXIT.done
  }
  const devices = new DeviceService({ settings: () => ({ serialPorts: [] }) })
  const lineEnding = LINE_ENDINGS[args.lineEnding]
  try {
    let session
    try {
      session = await devices.sessions.open({ kind: 'console' }, args.port, { baudRate: args.baud, dataBits: 8, parity: 'none', stopBits: 1, lineEnding: args.lineEnding })
    } catch (error) {
      if (error instanceof SerialSessionError) {
        process.stderr.write(`deskclaw: ${error.message}\n`)
        return EXIT.failed
      }
      throw error
    }
    if (args.send !== undefined || args.expect !== undefined) {
      const started = Date.now()
      if (args.send !== undefined) await devices.sessions.write(session.id, Buffer.from(unescapeSerialText(args.send) + lineEnding, 'utf8'))
      if (args.expect === undefined) {
        process.stdout.write(`sent ${JSON.stringify(unescapeSerialText(args.send!))} to ${args.port}\n`)
        return EXIT.done
      }
      try {
        const result = await devices.sessions.read(session.id, { until: Buffer.from(unescapeSerialText(args.expect), 'utf8'), timeoutMs: args.timeoutMs })
        const received = result.data.toString('utf8')
        if (result.reason === 'delimiter') {
          process.stdout.write(`ok: ${JSON.stringify(args.expect)} arrived from ${args.port} after ${Date.now() - started} ms\n`)
          return EXIT.done
        }
        process.stdout.write(`no ${JSON.stringify(args.expect)} from ${args.port} within ${args.timeoutMs} ms; received ${JSON.stringify(received)}\n`)
        return EXIT.failed
      } catch (error) {
        process.stderr.write(`deskclaw: ${(error as Error).message}\n`)
        return EXIT.failed
      }
    }
    // Interactive: lines from the terminal go out, what arrives is printed as it comes.
    process.stderr.write(`Connected to ${args.port} at ${args.baud} baud. Type a line and press Enter; Ctrl+C or Ctrl+D to quit.\n`)
    devices.sessions.onData((owner, data) => {
      if (owner.id === session.id) process.stdout.write(data.toString('utf8'))
    })
    const ended = new Promise<number>((resolve) => {
      devices.sessions.onClosed((owner, how) => {
        if (owner.id !== session.id) return
        if (how.disconnected) process.stderr.write(`\ndeskclaw: ${args.port} was disconnected\n`)
        resolve(how.disconnected ? EXIT.failed : EXIT.done)
      })
      const rl = createInterface({ input: process.stdin })
      rl.on('line', (line) => void devices.sessions.write(session.id, Buffer.from(line + lineEnding, 'utf8')).catch(() => {}))
      rl.on('close', () => resolve(EXIT.done))
      process.once('SIGINT', () => resolve(EXIT.done))
    })
    return await ended
  } finally {
    await devices.shutdown()
  }
}
