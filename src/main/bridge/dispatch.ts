import { z } from 'zod'
import { bridgeCalls, toAppError, type BridgeResult, type CallName } from '../../shared'
import type { HandlerTable } from './handlers'

const isCallName = (name: string): name is CallName => Object.hasOwn(bridgeCalls, name)

/**
 * Validates the input of a call against the contract and runs its handler. Never throws:
 * unknown calls, bad input and handler failures all come back as `{ ok: false, error }`.
 */
export async function dispatchCall(table: HandlerTable, name: string, rawInput: unknown): Promise<BridgeResult<unknown>> {
  if (!isCallName(name)) return { ok: false, error: { code: 'UNKNOWN_CALL', message: `Unknown call "${name}".` } }
  const parsed = bridgeCalls[name].input.safeParse(rawInput ?? {})
  if (!parsed.success) {
    return { ok: false, error: { code: 'VALIDATION_FAILED', message: `Invalid input for ${name}: ${z.prettifyError(parsed.error)}` } }
  }
  try {
    const handler = table[name] as (input: unknown) => unknown
    return { ok: true, data: await handler(parsed.data) }
  } catch (error) {
    return { ok: false, error: toAppError(error) }
  }
}
