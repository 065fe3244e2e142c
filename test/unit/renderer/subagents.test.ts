import { describe, expect, it } from 'vitest'
import type { AgentEvent, AgentEventOf } from '../../../src/shared'
import { foldSubagentEvent, type SubagentView } from '../../../src/renderer/src/stores/subagents'
import { snapshotFromDetail } from '../../../src/renderer/src/stores/reducers'
import type { ConversationDetail, ToolCallRecord } from '../../../src/shared'

const nested = (childRunId: string, event: Record<string, unknown>): AgentEventOf<'subagent_event'> => ({
  type: 'subagent_event',
  runId: 'run_parent',
  conversationId: 'conv_1',
  at: 1,
  callId: 'call_delegate',
  childRunId,
  task: `task of ${childRunId}`,
  event: { runId: childRunId, at: 1, conversationId: 'conv_1', ...event } as AgentEvent & { type: string; runId: string; at: number }
})

describe('foldSubagentEvent', () => {
  it('keeps each child apart: its steps, their states, its answer and its end', () => {
    const events = [
      nested('run_a', { type: 'run_started', prompt: 'a', model: 'm' }),
      nested('run_b', { type: 'run_started', prompt: 'b', model: 'm' }),
      nested('run_a', { type: 'tool_call_started', callId: 'c1', tool: 'file_read', args: {}, summary: 'a.txt' }),
      nested('run_b', { type: 'text_delta', messageId: 'm', delta: 'hel' }),
      nested('run_b', { type: 'text_delta', messageId: 'm', delta: 'lo' }),
      nested('run_a', { type: 'tool_call_completed', callId: 'c1', tool: 'file_read', status: 'completed', isError: false, output: 'alpha', durationMs: 3 }),
      nested('run_b', { type: 'run_completed', text: 'hello', stopReason: 'final', iterations: 1, usage: {} }),
      nested('run_a', { type: 'run_completed', text: '', stopReason: 'cancelled', iterations: 2, usage: {} })
    ]
    const views = events.reduce<SubagentView[]>((list, event) => foldSubagentEvent(list, event), [])
    expect(views).toEqual([
      { childRunId: 'run_a', task: 'task of run_a', status: 'cancelled', steps: [{ callId: 'c1', tool: 'file_read', summary: 'a.txt', status: 'completed' }], text: '' },
      { childRunId: 'run_b', task: 'task of run_b', status: 'completed', steps: [], text: 'hello' }
    ])
  })

  it('a reloaded delegate call shows its children as the live view did (from the logged nested events)', () => {
    const logged = [
      { childRunId: 'run_a', task: 'read a.txt', event: { type: 'run_started', runId: 'run_a', at: 1 } },
      { childRunId: 'run_a', task: 'read a.txt', event: { type: 'tool_call_started', runId: 'run_a', at: 2, callId: 'c1', tool: 'file_read', summary: 'a.txt' } },
      { childRunId: 'run_a', task: 'read a.txt', event: { type: 'tool_call_completed', runId: 'run_a', at: 3, callId: 'c1', tool: 'file_read', status: 'completed' } },
      { childRunId: 'run_a', task: 'read a.txt', event: { type: 'run_completed', runId: 'run_a', at: 4, text: 'a.txt says alpha', stopReason: 'final' } }
    ]
    const call: ToolCallRecord = {
      id: 'call_delegate', conversationId: 'conv_1', runId: 'run_parent', tool: 'delegate', args: {}, status: 'completed', isError: false,
      output: 'done', startedAt: 0, endedAt: 5, durationMs: 5, subagentEvents: logged
    }
    const detail = { conversation: { id: 'conv_1' }, messages: [], toolCalls: [call], runs: [] } as unknown as ConversationDetail
    expect(snapshotFromDetail(detail).toolCalls[0]!.subagents).toEqual([
      { childRunId: 'run_a', task: 'read a.txt', status: 'completed', steps: [{ callId: 'c1', tool: 'file_read', summary: 'a.txt', status: 'completed' }], text: 'a.txt says alpha' }
    ])
  })
})
