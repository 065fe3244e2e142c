/**
 * Linux: AT-SPI over D-Bus with dbus-next, in the calling process (docs/desktop.md, "Accessibility
 * backends" says why not in the driver). Applications are the registry's children, their top-level
 * windows are the applications' children; every node is addressed by its bus name and path.
 */
import type { MessageBus } from 'dbus-next'
import { pickWindow } from '../queries'
import {
  failure,
  ok,
  type AccessibilityBackend,
  type AccessibilityResult,
  type AccessibleNode,
  type AccessibleTree,
  type AccessibleWindow,
  type WalkOptions,
  type WindowQuery
} from '../types'
import { callBus, connectAccessibilityBus, type A11yConnection } from './bus'
import { IFACE, NodeReader, idToRef, refToId, type ObjectRef } from './node-reader'
import { walkTree } from './walk'

const REGISTRY: ObjectRef = { dest: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/accessible/root' }
const CONNECT_TIMEOUT_MS = 3000
const CALL_TIMEOUT_MS = 2000

export interface AtspiOptions {
  /** Where DBUS_SESSION_BUS_ADDRESS / AT_SPI_BUS_ADDRESS come from (default process.env). */
  env?: NodeJS.ProcessEnv
}

export class AtspiBackend implements AccessibilityBackend {
  readonly kind = 'atspi'
  private connection: Promise<AccessibilityResult<A11yConnection>> | undefined

  constructor(private readonly options: AtspiOptions = {}) {}

  private async connect(): Promise<AccessibilityResult<{ reader: NodeReader; bus: MessageBus; enabled: boolean | undefined }>> {
    this.connection ??= connectAccessibilityBus(this.options.env ?? process.env, CONNECT_TIMEOUT_MS).then((result) => {
      if (result.ok) {
        // A bus that dropped is connected again on the next call.
        result.value.bus.on('error', () => (this.connection = undefined))
      } else {
        this.connection = undefined
      }
      return result
    })
    const connection = await this.connection
    if (!connection.ok) return connection
    return ok({ reader: new NodeReader(connection.value.bus, CALL_TIMEOUT_MS), bus: connection.value.bus, enabled: connection.value.enabled })
  }

  async windows(options: { timeoutMs?: number } = {}): Promise<AccessibilityResult<AccessibleWindow[]>> {
    const connected = await this.connect()
    if (!connected.ok) return connected
    const { reader, bus, enabled } = connected.value
    const deadline = Date.now() + (options.timeoutMs ?? 5000)
    const apps = await reader.children(REGISTRY)
    if (!apps.ok) return failure(apps.reason === 'gone' ? 'atspi_missing' : apps.reason, `registry: ${apps.detail}`)
    const perApp = await Promise.all(
      apps.value.map(async (app): Promise<AccessibleWindow[]> => {
        if (Date.now() > deadline) return []
        const [appName, frames, pid] = await Promise.all([reader.property(app, IFACE.accessible, 'Name'), reader.children(app), processId(bus, app.dest)])
        if (!frames.ok) return []
        const read = await Promise.all(frames.value.map((frame) => reader.read(frame, false)))
        return read.flatMap((result) =>
          result.ok
            ? [
                {
                  id: result.value.node.id,
                  title: result.value.node.name,
                  app: appName.ok ? String(appName.value ?? '') : '',
                  ...(pid !== undefined ? { pid } : {}),
                  ...(result.value.node.extents ? { extents: result.value.node.extents } : {}),
                  states: result.value.node.states
                }
              ]
            : []
        )
      })
    )
    const windows = perApp.flat()
    if (windows.length === 0 && enabled === false) {
      return failure('atspi_disabled', 'org.a11y.Status.IsEnabled is false and no application exposes a window')
    }
    return ok(windows)
  }

  async findWindow(query: WindowQuery, options: { timeoutMs?: number } = {}): Promise<AccessibilityResult<AccessibleWindow>> {
    const windows = await this.windows(options)
    if (!windows.ok) return windows
    const picked = pickWindow(windows.value, query)
    if (!picked.ok && picked.reason === 'not_found' && windows.value.length === 0) return failure('no_tree', picked.detail)
    return picked
  }

  async tree(id: string, options: WalkOptions = {}): Promise<AccessibilityResult<AccessibleTree>> {
    const ref = idToRef(id)
    if (!ref) return failure('not_found', `not an accessible id: ${id}`)
    const connected = await this.connect()
    if (!connected.ok) return connected
    return walkTree(connected.value.reader, ref, options)
  }

  async node(id: string): Promise<AccessibilityResult<AccessibleNode>> {
    const ref = idToRef(id)
    if (!ref) return failure('not_found', `not an accessible id: ${id}`)
    const connected = await this.connect()
    if (!connected.ok) return connected
    const read = await connected.value.reader.read(ref, false)
    return read.ok ? ok(read.value.node) : read
  }

  async activate(id: string, name?: string): Promise<AccessibilityResult<{ action: string }>> {
    const node = await this.node(id)
    if (!node.ok) return node
    const index = name === undefined ? 0 : node.value.actions.indexOf(name)
    const action = node.value.actions[index]
    if (action === undefined) {
      return failure('not_supported_by_widget', `${node.value.role} "${node.value.name}" has no action ${name ?? ''} (actions: ${node.value.actions.join(', ') || 'none'})`.replace('  ', ' '))
    }
    const done = await this.callOn(id, IFACE.action, 'DoAction', 'i', [index])
    if (!done.ok) return done
    return done.value[0] === false ? failure('failed', `${action} refused by ${node.value.role} "${node.value.name}"`) : ok({ action })
  }

  async select(id: string): Promise<AccessibilityResult<true>> {
    const ref = idToRef(id)
    if (!ref) return failure('not_found', `not an accessible id: ${id}`)
    const connected = await this.connect()
    if (!connected.ok) return connected
    const { reader } = connected.value
    const [parent, index] = await Promise.all([reader.property(ref, IFACE.accessible, 'Parent'), reader.call(ref, IFACE.accessible, 'GetIndexInParent')])
    if (!parent.ok) return parent
    if (!index.ok) return index
    const [dest, path] = (parent.value as [string, string] | undefined) ?? []
    if (!dest || !path) return failure('not_supported_by_widget', 'the widget has no parent to select it in')
    const done = await reader.call({ dest, path }, IFACE.selection, 'SelectChild', 'i', [Number(index.value[0])])
    if (!done.ok) return done
    return done.value[0] === false ? failure('failed', 'SelectChild refused') : ok(true)
  }

  async focus(id: string): Promise<AccessibilityResult<true>> {
    const done = await this.callOn(id, IFACE.component, 'GrabFocus')
    if (!done.ok) return done
    return done.value[0] === false ? failure('failed', 'GrabFocus refused') : ok(true)
  }

  async setText(id: string, text: string): Promise<AccessibilityResult<true>> {
    const done = await this.callOn(id, IFACE.editableText, 'SetTextContents', 's', [text])
    if (!done.ok) return done
    return done.value[0] === false ? failure('not_supported_by_widget', 'SetTextContents refused (read-only?)') : ok(true)
  }

  async close(): Promise<void> {
    const connection = this.connection
    this.connection = undefined
    const result = await connection
    if (result?.ok) result.value.bus.disconnect()
  }

  private async callOn(id: string, iface: string, member: string, signature = '', body: unknown[] = []): Promise<AccessibilityResult<unknown[]>> {
    const ref = idToRef(id)
    if (!ref) return failure('not_found', `not an accessible id: ${id}`)
    const connected = await this.connect()
    if (!connected.ok) return connected
    return connected.value.reader.call(ref, iface, member, signature, body)
  }
}

/** The pid behind an application's bus name, from the bus daemon (it knows its peers' credentials). */
async function processId(bus: MessageBus, name: string): Promise<number | undefined> {
  const got = await callBus(
    bus,
    {
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'GetConnectionUnixProcessID',
      signature: 's',
      body: [name]
    },
    CALL_TIMEOUT_MS
  )
  return got.ok && typeof got.value[0] === 'number' ? got.value[0] : undefined
}

export { refToId }
