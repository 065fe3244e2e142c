import { errorMessage, type Settings } from '../../shared'
import type { ApprovalBroker, ConversationGrants } from '../approvals'
import { changes, type AppService } from '../lifecycle'
import type { Runtime, SelectedRuntime } from '../runtime'
import type { ConversationStore } from '../store'
import type { EventBus } from './event-bus'

/** The registered services, and the loops over them. A hook that fails is logged; it never stops the others. */
export class ServiceSet {
  private readonly services: AppService[] = []

  register<T extends AppService>(service: T): T {
    this.services.push(service)
    return service
  }

  /** Starts every service; nobody awaits a slow start, so failures are logged here. */
  startAll(): void {
    for (const service of this.services) void this.call(service, 'start', () => service.started?.())
  }

  async settingsChanged(next: Settings, patch: Partial<Settings>): Promise<void> {
    await Promise.all(this.services.map((service) => this.call(service, 'apply settings', () => service.settingsChanged?.(next, patch))))
  }

  async conversationClosed(conversationId: string): Promise<void> {
    await Promise.all(
      this.services.map((service) => this.call(service, `close conversation ${conversationId}`, () => service.conversationClosed?.(conversationId)))
    )
  }

  /** In reverse order: what was built last (and may use the others) stops first. */
  async shutdown(): Promise<void> {
    for (const service of [...this.services].reverse()) await this.call(service, 'shut down', () => service.shutdown?.())
  }

  private async call(service: AppService, what: string, hook: () => void | Promise<void>): Promise<void> {
    try {
      await hook()
    } catch (error) {
      console.warn(`[deskclaw] ${service.name} could not ${what}: ${errorMessage(error)}`)
    }
  }
}

// The core services' parts, one small adapter each.

export const storeService = (store: ConversationStore): AppService => ({ name: 'store', shutdown: () => store.close() })

/** Where commands run: probed at start (docker reaps orphaned containers then, docs/runtimes.md), reconfigured by settings. */
export function runtimeService(
  runtime: Runtime,
  selected: SelectedRuntime | null,
  options: () => Parameters<SelectedRuntime['reconfigure']>[1],
  events: EventBus
): AppService {
  let stopped = false
  let stopWaiting = (): void => {}
  return {
    name: 'runtime',
    // The sandbox is chosen (engines probed, their clients loaded) when the first run starts, not with
    // the app: an idle `deskclaw web` holds no Docker client, and the probe overlaps the run's first
    // model call, after its first event went out (docs/benchmarks.md, "CLI start-up", "deskclaw web memory").
    started: () => {
      stopWaiting = events.subscribe((event) => {
        if (event.kind !== 'agent' || event.event.type !== 'run_started') return
        stopWaiting()
        setImmediate(() => {
          if (stopped) return
          Promise.resolve(runtime.ready?.()).catch((error: unknown) => console.warn(`[deskclaw] runtime could not start: ${errorMessage(error)}`))
        })
      })
    },
    async settingsChanged(next, patch) {
      if (!selected || !changes(patch, 'runtime', 'dockerImage', 'allowedEnv')) return
      await selected.reconfigure(next.runtime, options())
      await runtime.ready?.()
    },
    conversationClosed: (id) => runtime.closeConversation?.(id),
    shutdown: () => {
      stopped = true
      stopWaiting()
      return runtime.close?.()
    }
  }
}

/**
 * The sandbox run_code uses when the shell's runtime is native (docs/tools.md, "run_code"): chosen
 * on first use only, fail-closed (never native), re-chosen when the runtime settings change.
 */
export function codeSandboxService(sandbox: SelectedRuntime, options: () => Parameters<SelectedRuntime['reconfigure']>[1]): AppService {
  return {
    name: 'code sandbox',
    async settingsChanged(_next, patch) {
      if (changes(patch, 'runtime', 'dockerImage', 'allowedEnv')) await sandbox.reconfigure('auto', options())
    },
    conversationClosed: (id) => sandbox.closeConversation(id),
    shutdown: () => sandbox.close()
  }
}

export const grantsService = (grants: ConversationGrants): AppService => ({
  name: 'grants',
  conversationClosed: (id) => grants.forget(id)
})

export const approvalsService = (approvals: ApprovalBroker): AppService => ({
  name: 'approvals',
  settingsChanged: (next) => approvals.setTimeout(next.approvalTimeoutMs),
  // Registered last, so it shuts down first: nobody can answer any more.
  shutdown: () => approvals.denyAll('DeskClaw is closing.')
})
