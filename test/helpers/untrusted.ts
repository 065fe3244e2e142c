/**
 * Untrusted tool output reaches the model inside `<untrusted source="…">…</untrusted>` (docs/risk.md,
 * "Provenance"). Tests that check what the model received compare the content inside: `unmarked`
 * returns it, and fails when the block is missing, so the marking is checked too.
 */
import { expect } from 'vitest'

const BLOCK = /^<untrusted source="([^"]*)">\n([\s\S]*)\n<\/untrusted>$/

export function unmarked(content: unknown, source?: string | RegExp): string {
  const text = String(content)
  const match = BLOCK.exec(text)
  expect(match, `not marked as untrusted content: ${text.slice(0, 120)}`).not.toBeNull()
  if (source !== undefined) expect(match![1]).toMatch(source)
  return match![2]!
}
