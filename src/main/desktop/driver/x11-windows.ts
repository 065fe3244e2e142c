/**
 * Windows on X11 through the window manager's own list (EWMH `_NET_CLIENT_LIST`), spoken over the
 * X protocol in plain JavaScript. libnut lists the root's children instead, which under a
 * reparenting window manager are untitled frames (docs/desktop.md, "Per-OS notes").
 */
import type { WindowInfo } from '../protocol'

/* eslint-disable @typescript-eslint/no-explicit-any -- the x11 package ships no types */
type XClient = any

interface Property {
  type: number
  data: Buffer
}

export class X11Windows {
  private atoms = new Map<string, number>()

  private constructor(
    private readonly client: XClient,
    private readonly root: number
  ) {}

  /** Opens its own connection to the display in DISPLAY; rejects with the reason when it cannot. */
  static async connect(): Promise<X11Windows> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const x11 = require('x11') as { createClient(cb: (error: Error | null, display: any) => void): any }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`cannot open display ${process.env.DISPLAY}: no answer`)), 5000)
      const client = x11.createClient((error, display) => {
        clearTimeout(timer)
        if (error) return reject(new Error(`cannot open display ${process.env.DISPLAY}: ${error.message}`))
        const windows = new X11Windows(display.client, display.screen[0].root)
        resolve(windows)
      })
      // Errors after connecting belong to the request that caused them; unhandled ones must not kill the driver.
      client.on?.('error', () => {})
    })
  }

  private atom(name: string): Promise<number> {
    const known = this.atoms.get(name)
    if (known !== undefined) return Promise.resolve(known)
    return new Promise((resolve, reject) =>
      this.client.InternAtom(false, name, (error: Error | null, atom: number) => {
        if (error) return reject(error)
        this.atoms.set(name, atom)
        resolve(atom)
      })
    )
  }

  private property(window: number, name: string, type = 0): Promise<Property | null> {
    return this.atom(name).then(
      (atom) =>
        new Promise((resolve) =>
          this.client.GetProperty(0, window, atom, type, 0, 1_000_000, (error: Error | null, prop: Property) => resolve(error ? null : prop))
        )
    )
  }

  private async windowIds(window: number, name: string): Promise<number[]> {
    const prop = await this.property(window, name)
    const ids: number[] = []
    if (prop?.data) for (let i = 0; i + 4 <= prop.data.length; i += 4) ids.push(prop.data.readUInt32LE(i))
    return ids
  }

  /** True when a window manager publishes its client list (otherwise there is nothing reliable to list). */
  async hasWindowManager(): Promise<boolean> {
    const check = await this.windowIds(this.root, '_NET_SUPPORTING_WM_CHECK')
    return check.length > 0
  }

  async list(): Promise<WindowInfo[]> {
    const [ids, active] = await Promise.all([this.windowIds(this.root, '_NET_CLIENT_LIST'), this.activeWindow()])
    const windows: WindowInfo[] = []
    for (const id of ids) {
      const [title, app, bounds] = await Promise.all([this.title(id), this.wmClass(id), this.bounds(id)])
      if (!bounds) continue // gone while we looked
      windows.push({ id: String(id), title, app, bounds, focused: id === active })
    }
    return windows
  }

  async activeWindow(): Promise<number | null> {
    const [id] = await this.windowIds(this.root, '_NET_ACTIVE_WINDOW')
    return id ? id : null
  }

  private async title(id: number): Promise<string> {
    const utf8 = await this.atom('UTF8_STRING')
    const netName = await this.property(id, '_NET_WM_NAME', utf8)
    if (netName?.data?.length) return netName.data.toString('utf8')
    const name = await this.property(id, 'WM_NAME')
    return name?.data ? name.data.toString(name.type === utf8 ? 'utf8' : 'latin1') : ''
  }

  private async wmClass(id: number): Promise<string> {
    const prop = await this.property(id, 'WM_CLASS')
    const [instance, cls] = (prop?.data?.toString('latin1') ?? '').split('\0')
    return cls || instance || ''
  }

  private bounds(id: number): Promise<WindowInfo['bounds'] | null> {
    return new Promise((resolve) =>
      this.client.GetGeometry(id, (error: Error | null, geometry: { width: number; height: number }) => {
        if (error) return resolve(null)
        this.client.TranslateCoordinates(id, this.root, 0, 0, (err: Error | null, at: { destX: number; destY: number }) => {
          if (err) return resolve(null)
          resolve({ x: signed16(at.destX), y: signed16(at.destY), width: geometry.width, height: geometry.height })
        })
      })
    )
  }

  /** Asks the window manager to activate the window (raise, un-minimise, focus), then waits until it is active. */
  async focus(id: number, timeoutMs = 1500): Promise<boolean> {
    const activeAtom = await this.atom('_NET_ACTIVE_WINDOW')
    const event = Buffer.alloc(32)
    event.writeUInt8(33, 0) // ClientMessage
    event.writeUInt8(32, 1) // format 32
    event.writeUInt32LE(id, 4)
    event.writeUInt32LE(activeAtom, 8)
    event.writeUInt32LE(2, 12) // source: a pager, which window managers obey
    event.writeUInt32LE(0, 16) // CurrentTime
    // SubstructureRedirect | SubstructureNotify: the window manager receives it.
    this.client.SendEvent(this.root, false, 0x00180000, event)
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      if ((await this.activeWindow()) === id) return true
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return false
  }

  close(): void {
    try {
      this.client.terminate?.()
      this.client.close?.()
    } catch {
      // already gone
    }
  }
}

function signed16(value: number): number {
  return value > 0x7fff ? value - 0x10000 : value
}
