/**
 * One accessibility interface for every OS (docs/desktop.md, "Accessibility backends"): the
 * widgets an application exposes — role, name, states, text, where it is on the screen — read
 * exactly, without OCR, and the few things done through them (activate, focus, set text).
 * Every failure is a value with a reason, never a throw.
 */
import type { Rect } from '../protocol'

/** The states DeskClaw looks at; backends map their own flags onto these names. */
export const ACCESSIBLE_STATES = [
  'active',
  'checked',
  'editable',
  'enabled',
  'expanded',
  'focusable',
  'focused',
  'multi-line',
  'selectable',
  'selected',
  'sensitive',
  'showing',
  'single-line',
  'visible'
] as const
export type AccessibleState = (typeof ACCESSIBLE_STATES)[number]

export interface AccessibleNode {
  /** Opaque, valid while the application keeps the widget (AT-SPI: bus name + object path). */
  id: string
  /** The backend's role name in English: "frame", "table cell", "text", "push button", "page tab". */
  role: string
  name: string
  states: AccessibleState[]
  /** Text widgets (entries, text views, labels): their whole text. */
  text?: string
  /** On the screen, in screen pixels; absent when the widget has no geometry. */
  extents?: Rect
  /** Action names the widget offers ("activate", "click", "press"). */
  actions: string[]
  /** Whether its text can be replaced (EditableText). */
  editableText: boolean
  /** How many children the application reports, whether or not they were read. */
  childCount: number
  children: AccessibleNode[]
}

export interface AccessibleWindow {
  id: string
  title: string
  /** The application's name as it tells it ("hexchat", "Pidgin"). */
  app: string
  /** The process that owns the window, when the bus knows it. */
  pid?: number
  extents?: Rect
  states: AccessibleState[]
}

export interface AccessibleTree {
  root: AccessibleNode
  /** Nodes read. */
  visited: number
  /** Stopped early: the node budget or the deadline was reached (the tree is a prefix, breadth first). */
  truncated: false | 'budget' | 'deadline'
  elapsedMs: number
}

export interface WalkOptions {
  /** At most this many nodes are read (default 2000). */
  maxNodes?: number
  /** Levels below the root (default unlimited; 0 reads only the root). */
  maxDepth?: number
  /** Milliseconds for the whole walk (default 5000). */
  timeoutMs?: number
  /** Skip subtrees that are not on the screen (no `showing` state): a hidden tab's widgets. */
  showingOnly?: boolean
}

export interface WindowQuery {
  /** The exact title, or a part of it that only one window's title contains. */
  title?: string
  pid?: number
}

export const ACCESSIBILITY_FAILURES = [
  'unsupported_os',
  'no_session_bus',
  'atspi_missing',
  'atspi_disabled',
  'no_tree',
  'not_found',
  'ambiguous',
  'gone',
  'not_supported_by_widget',
  'deadline',
  'failed'
] as const
export type AccessibilityFailureReason = (typeof ACCESSIBILITY_FAILURES)[number]

export interface AccessibilityFailure {
  ok: false
  reason: AccessibilityFailureReason
  /** What the other side said or what was looked for: never translated, shown after the sentence. */
  detail: string
}
export type AccessibilityResult<T> = { ok: true; value: T } | AccessibilityFailure

export interface AccessibilityBackend {
  /** "atspi", "uia", "ax" */
  readonly kind: string
  /** The accessible top-level windows of every application that exposes a tree. */
  windows(options?: { timeoutMs?: number }): Promise<AccessibilityResult<AccessibleWindow[]>>
  /** Exactly one window: by title (exact, else a unique part) and/or the owning process. */
  findWindow(query: WindowQuery, options?: { timeoutMs?: number }): Promise<AccessibilityResult<AccessibleWindow>>
  /** The subtree under a window or node, breadth first within a node budget and a deadline. */
  tree(id: string, options?: WalkOptions): Promise<AccessibilityResult<AccessibleTree>>
  /** One node read again now (children not read). */
  node(id: string): Promise<AccessibilityResult<AccessibleNode>>
  /** Performs the widget's action (`name`, else its first: "activate", "click"). */
  activate(id: string, name?: string): Promise<AccessibilityResult<{ action: string }>>
  /** Selects the item in its container (a tab in its tab list, a row in its list): the parent's Selection. */
  select(id: string): Promise<AccessibilityResult<true>>
  /** Gives the widget the keyboard focus (in a list: moves the cursor to its row). */
  focus(id: string): Promise<AccessibilityResult<true>>
  /** Replaces the widget's whole text (EditableText). */
  setText(id: string, text: string): Promise<AccessibilityResult<true>>
  /** Closes the connections; the backend may be used again (it reconnects). */
  close(): Promise<void>
}

export const ok = <T>(value: T): AccessibilityResult<T> => ({ ok: true, value })
export const failure = (reason: AccessibilityFailureReason, detail = ''): AccessibilityFailure => ({ ok: false, reason, detail })
