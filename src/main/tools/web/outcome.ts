/** Failures and approval fields the web tools give alike. */
import { fail, text, withDisplay, type ToolOutput } from '../define-tool'
import type { WebToolServices } from './common'
import type { WebFailure } from './http-client'

/** A request that did not get an answer, as a result the model and the timeline read: what stopped it and where. */
export function failureOutput(failure: WebFailure, services: WebToolServices, redact: (text: string) => string = (t) => t): ToolOutput {
  const url = redact(failure.url)
  const reason = redact(failure.reason)
  const path = failure.hops.length > 1 ? ` (after ${failure.hops.slice(0, -1).map(redact).join(' → ')})` : ''
  switch (failure.kind) {
    case 'blocked':
      return withDisplay(fail(`Stopped before ${url}${path}: ${reason} Nothing was sent there.`), text('result.blocked', { url, reason }))
    case 'tooManyRedirects':
      return withDisplay(fail(`More than 5 redirects; stopped at ${url}${path}.`), text('result.tooManyRedirects', { url, max: 5 }))
    case 'timeout': {
      const seconds = services.settings().webTimeoutSec
      return withDisplay(fail(`No complete answer from ${url} within ${seconds} s${path}.`), text('result.timeout', { url, seconds }))
    }
    case 'stopped':
      return withDisplay(fail('Stopped.'), text('result.stopped'))
    case 'failed':
      return withDisplay(fail(`The request to ${url} failed${path}: ${reason}`), text('result.failed', { url, reason }))
  }
}

/** The approval's line with the addresses the host resolves to (what the judgement saw). */
export async function previewAddresses(services: WebToolServices, url: string) {
  const resolved = await services.resolve(url)
  return resolved.ok
    ? { label: text('addresses'), value: resolved.addresses.join(', ') }
    : { label: text('addresses'), value: resolved.message, display: text('unresolved') }
}
