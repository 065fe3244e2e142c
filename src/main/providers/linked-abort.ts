/**
 * An abort controller that also aborts when `outer` does: a turn can end its own request (a part
 * that could not be taken) and still follow the run's cancel. A listener removed in `dispose`
 * instead of `AbortSignal.any`, which costs ~16 µs a call on Node 20 and keeps each dependent
 * signal registered on the run's signal until it is collected (docs/benchmarks.md, "Agent loop").
 */
export function linkedAbort(outer: AbortSignal): { signal: AbortSignal; abort(): void; dispose(): void } {
  const controller = new AbortController()
  const follow = (): void => controller.abort(outer.reason)
  if (outer.aborted) follow()
  else outer.addEventListener('abort', follow, { once: true })
  return {
    signal: controller.signal,
    abort: () => controller.abort(),
    dispose: () => outer.removeEventListener('abort', follow)
  }
}
