/**
 * What compaction's bookkeeping adds to each step (docs/architecture.md, "Compaction"), beside its
 * floor in the same run: the loop before compaction pushed a step's messages onto an array; now
 * the ContextKeeper adds them (estimating each new message once), gives the view and estimates the
 * next prompt. A step here: an assistant tool call and a 4 KB tool result, in a conversation of
 * 200 earlier messages, under a window it never nears (no compaction: that is a model request).
 * Run: npx vitest bench --run --project unit bench/context-keeper.bench.ts
 */
import { loadavg } from 'node:os'
import type { ModelMessage } from 'ai'
import { bench, describe } from 'vitest'
import { ContextKeeper } from '../src/main/agent/context-keeper'

const OUTPUT = 'line of a file that was read, with some words in it\n'.repeat(80)
let n = 0
function step(): ModelMessage[] {
  const id = `c${n++}`
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'file_read', input: { path: `src/file-${n}.ts` } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'file_read', output: { type: 'text', value: `${n}${OUTPUT}` } }] }
  ]
}
const history = Array.from({ length: 100 }, step).flat()

describe(`per step, 200 messages before it (load ${loadavg().map((l) => l.toFixed(2)).join(' ')})`, () => {
  const array: ModelMessage[] = [...history]
  bench('floor: push the step onto an array', () => {
    array.push(...step())
    if (array.length > 2000) array.length = 200
  })
  let keeper = new ContextKeeper(history, 10_000_000)
  let steps = 0
  bench('ContextKeeper: add, view, estimate, observe', () => {
    keeper.add(...step())
    keeper.needsCompaction(6000)
    keeper.view(6000)
    keeper.observe(5000 + steps)
    if (++steps > 900) {
      keeper = new ContextKeeper(history, 10_000_000)
      steps = 0
    }
  })
})
