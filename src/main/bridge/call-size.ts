import { ATTACHMENT_LIMITS, type BridgeResult } from '../../shared'

const MiB = 1024 * 1024

/**
 * How large one call's frame may be on the web host (docs/architecture.md, "Web host
 * backpressure"). Only `agent.send` carries attachments: ATTACHMENT_LIMITS.totalBytes as base64
 * (4/3), plus its text and the JSON around them. Every other call fits well within 1 MiB.
 */
export const CALL_FRAME_LIMITS = {
  default: 1 * MiB,
  'agent.send': Math.ceil((ATTACHMENT_LIMITS.totalBytes * 4) / 3) + 8 * MiB
} as const

/** The largest frame the WebSocket takes at all; a larger one closes the client (1009, too big). */
export const MAX_FRAME_BYTES = Math.max(...Object.values(CALL_FRAME_LIMITS))

export function callFrameLimit(call: string): number {
  return call === 'agent.send' ? CALL_FRAME_LIMITS['agent.send'] : CALL_FRAME_LIMITS.default
}

/** The answer to a call whose frame is over its limit: an error that says so, not a silent drop. */
export function oversizeCall(call: string, bytes: number): BridgeResult<never> | null {
  const limit = callFrameLimit(call)
  if (bytes <= limit) return null
  return {
    ok: false,
    error: {
      code: 'VALIDATION_FAILED',
      message: `The ${call} call is ${(bytes / MiB).toFixed(1)} MiB; it may be at most ${(limit / MiB).toFixed(0)} MiB.`
    }
  }
}
