/**
 * Reads one AT-SPI object: role, name, states, interfaces, children, and — where it has them — its
 * text, screen extents and actions. The calls for one node go out together (one round trip's wait).
 */
import type { MessageBus } from 'dbus-next'
import type { Rect } from '../../protocol'
import { failure, ok, type AccessibilityResult, type AccessibleNode } from '../types'
import { callBus } from './bus'
import { decodeStates } from './states'

export const IFACE = {
  accessible: 'org.a11y.atspi.Accessible',
  action: 'org.a11y.atspi.Action',
  component: 'org.a11y.atspi.Component',
  editableText: 'org.a11y.atspi.EditableText',
  text: 'org.a11y.atspi.Text',
  selection: 'org.a11y.atspi.Selection',
  application: 'org.a11y.atspi.Application'
} as const

/** An object on the accessibility bus: the application's bus name and the object's path. */
export interface ObjectRef {
  dest: string
  path: string
}

export const refToId = (ref: ObjectRef): string => `${ref.dest}${ref.path}`

export function idToRef(id: string): ObjectRef | undefined {
  const slash = id.indexOf('/')
  if (slash <= 0) return undefined
  return { dest: id.slice(0, slash), path: id.slice(slash) }
}

/** AT-SPI's null reference (a child that is not there). */
const isNullRef = (ref: ObjectRef): boolean => ref.path === '/org/a11y/atspi/null'

export interface ReadNode {
  node: AccessibleNode
  childRefs: ObjectRef[]
}

export class NodeReader {
  constructor(
    private readonly bus: MessageBus,
    private readonly callTimeoutMs: number
  ) {}

  call(ref: ObjectRef, iface: string, member: string, signature = '', body: unknown[] = []): Promise<AccessibilityResult<unknown[]>> {
    return callBus(this.bus, { destination: ref.dest, path: ref.path, interface: iface, member, signature, body }, this.callTimeoutMs)
  }

  async property(ref: ObjectRef, iface: string, name: string): Promise<AccessibilityResult<unknown>> {
    const got = await this.call(ref, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, name])
    return got.ok ? ok((got.value[0] as { value?: unknown } | undefined)?.value) : got
  }

  async children(ref: ObjectRef): Promise<AccessibilityResult<ObjectRef[]>> {
    const got = await this.call(ref, IFACE.accessible, 'GetChildren')
    if (!got.ok) return got
    const pairs = (got.value[0] as [string, string][] | undefined) ?? []
    return ok(pairs.map(([dest, path]) => ({ dest, path })).filter((child) => !isNullRef(child)))
  }

  /**
   * GetActions gives localized names, empty where the toolkit has no translation (GTK 2 in the C
   * locale); GetName gives the stable English one DoAction callers ask for.
   */
  private async actionNames(ref: ObjectRef, actions: [string, string, string][]): Promise<string[]> {
    const names = await Promise.all(actions.map((_, i) => this.call(ref, IFACE.action, 'GetName', 'i', [i])))
    return names.map((name, i) => (name.ok ? String(name.value[0] ?? '') : '') || actions[i][0])
  }

  async read(ref: ObjectRef, withChildren: boolean): Promise<AccessibilityResult<ReadNode>> {
    const [role, name, states, interfaces, children] = await Promise.all([
      this.call(ref, IFACE.accessible, 'GetRoleName'),
      this.property(ref, IFACE.accessible, 'Name'),
      this.call(ref, IFACE.accessible, 'GetState'),
      this.call(ref, IFACE.accessible, 'GetInterfaces'),
      withChildren ? this.children(ref) : this.property(ref, IFACE.accessible, 'ChildCount')
    ])
    // The role is the one answer every accessible has: without it the object is gone.
    if (!role.ok) return role.reason === 'not_supported_by_widget' ? failure('gone', role.detail) : role
    const has = new Set(interfaces.ok ? ((interfaces.value[0] as string[] | undefined) ?? []) : [])
    const [text, extents, actions] = await Promise.all([
      has.has(IFACE.text) ? this.call(ref, IFACE.text, 'GetText', 'ii', [0, -1]) : undefined,
      has.has(IFACE.component) ? this.call(ref, IFACE.component, 'GetExtents', 'u', [0]) : undefined,
      has.has(IFACE.action) ? this.call(ref, IFACE.action, 'GetActions') : undefined
    ])
    const childRefs = withChildren && children.ok ? (children.value as ObjectRef[]) : []
    const childCount = withChildren ? childRefs.length : children.ok ? Number(children.value) || 0 : 0
    const node: AccessibleNode = {
      id: refToId(ref),
      role: String(role.value[0] ?? ''),
      name: name.ok ? String(name.value ?? '') : '',
      states: states.ok ? decodeStates((states.value[0] as number[] | undefined) ?? []) : [],
      actions: actions?.ok ? await this.actionNames(ref, (actions.value[0] as [string, string, string][] | undefined) ?? []) : [],
      editableText: has.has(IFACE.editableText),
      childCount,
      children: []
    }
    if (text?.ok) node.text = String(text.value[0] ?? '')
    const rect = extents?.ok ? toRect(extents.value[0]) : undefined
    if (rect) node.extents = rect
    return ok({ node, childRefs })
  }
}

/** Sentinel coordinates GTK gives a widget that is not on the screen (G_MININT). */
const NOWHERE = -2147483648

function toRect(value: unknown): Rect | undefined {
  if (!Array.isArray(value) || value.length < 4) return undefined
  const [x, y, width, height] = value.map(Number)
  // GTK reports -1 or 0 for widgets without geometry (not realised, off screen).
  if (![x, y, width, height].every(Number.isInteger) || width < 1 || height < 1 || x === NOWHERE || y === NOWHERE) return undefined
  return { x, y, width, height }
}
