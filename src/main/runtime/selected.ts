import { selectRuntime, type RuntimeChoice, type RuntimeSelection, type SelectRuntimeOptions } from './select'
import type { ExecRequest, ExecResult, Runtime } from './types'

/**
 * The runtime the settings ask for, chosen by probing once (docker answers? bwrap works?) and
 * re-chosen when the settings change. Shell tools hold this one object; `name` says what really
 * runs the commands once `ready()` has resolved, and `fellBackToNative` makes the policy stricter.
 */
export class SelectedRuntime implements Runtime {
  private selection: Promise<RuntimeSelection> | null = null
  private resolved: RuntimeSelection | null = null

  constructor(
    private choice: RuntimeChoice,
    private options: SelectRuntimeOptions = {}
  ) {}

  get name(): string {
    return this.resolved?.runtime.name ?? this.choice
  }

  get shell(): 'sh' | 'cmd' {
    return this.resolved?.runtime.shell ?? 'sh'
  }

  /** No sandbox could run, so commands run on the host: `auto` fell all the way back. */
  get fellBackToNative(): boolean {
    return this.resolved?.fellBackToNative ?? false
  }

  /** Why the runtimes before the chosen one were skipped (for doctor and the logs). */
  get reasons(): string[] {
    return this.resolved?.reasons ?? []
  }

  async ready(): Promise<void> {
    await this.select().catch(() => {})
  }

  /** Null when a runtime was chosen; else why none could be (an explicit or fail-closed sandbox that cannot run). */
  async unavailableReason(): Promise<string | null> {
    return this.select().then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error))
    )
  }

  async exec(request: ExecRequest): Promise<ExecResult> {
    const { runtime } = await this.select()
    return runtime.exec(request)
  }

  async closeConversation(conversationId: string): Promise<void> {
    const runtime = this.resolved?.runtime
    await runtime?.closeConversation?.(conversationId)
  }

  /** New settings: the next command probes again; the old runtime's containers are removed. */
  async reconfigure(choice: RuntimeChoice, options: SelectRuntimeOptions = this.options): Promise<void> {
    const previous = this.selection
    this.choice = choice
    this.options = options
    this.selection = null
    this.resolved = null
    const old = await previous?.catch(() => null)
    await old?.runtime.close?.()
  }

  async close(): Promise<void> {
    const current = await this.selection?.catch(() => null)
    this.selection = null
    this.resolved = null
    await current?.runtime.close?.()
  }

  private select(): Promise<RuntimeSelection> {
    if (!this.selection) {
      const pending = selectRuntime(this.choice, this.options)
      this.selection = pending
      pending.then(
        (selection) => {
          if (this.selection === pending) this.resolved = selection
        },
        () => {
          // An explicit sandbox that cannot run fails each command clearly; the next one tries again.
          if (this.selection === pending) this.selection = null
        }
      )
    }
    return this.selection
  }
}
