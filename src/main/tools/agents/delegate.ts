import { z } from 'zod'
import { errorMessage, type ImageMediaType } from '../../../shared'
import { defineTool, fail, ok, text, withDisplay, type ToolAttachment } from '../define-tool'
import { persistsTo, untrusted } from '../../provenance'

/** The tool's own name: never offered to a child (no recursion). */
export const DELEGATE_TOOL = 'delegate'

/** What the parent asks of one child run. */
export interface ChildRunRequest {
  /** The parent run and its delegate call: the child's events nest under them. */
  parentRunId: string
  parentCallId: string
  conversationId: string
  workspace: string
  task: string
  /** The parent's tools the child may use, by name (never `delegate`). */
  tools: string[]
  maxIterations?: number
  /** The parent's: cancelling the parent cancels the child. */
  signal: AbortSignal
}

export interface ChildRunResult {
  status: 'completed' | 'max_iterations' | 'cancelled' | 'failed'
  /** The child's final answer (or what it had when it stopped). */
  text: string
  error?: string
  iterations: number
  /** Images the child's tools returned, the last few: the parent sees them too. */
  images: Array<{ mediaType: ImageMediaType; data: Uint8Array; name?: string }>
}

/** The agent room's service, composed by the app (app/ builds it over AgentService), so tools/ never imports agent/. */
export interface AgentToolServices {
  /** Runs one child to its end; throws VALIDATION_FAILED for tool names that are unknown or not allowed. */
  startChildRun(request: ChildRunRequest): Promise<ChildRunResult>
}

/**
 * delegate (docs/tools.md, "Sub-agents"): hands a self-contained sub-task to a child run with its
 * own loop, the tools named here and its own step limit. Several delegate calls of one step run in
 * parallel (up to the concurrency setting). A read by itself: what the child does is judged call by
 * call, and its questions reach the user labelled with the task.
 */
export function createDelegateTool(services: AgentToolServices) {
  return defineTool({
    name: DELEGATE_TOOL,
    repeat: 'may-differ',
    description:
      'Delegate a self-contained sub-task to a sub-agent with its own steps and only the tools you name (not delegate itself). ' +
      'Call it several times in one step to run independent sub-tasks in parallel. The sub-agent sees only `task` (no conversation), ' +
      'so say everything it needs; you get its final answer (and images its tools returned) as the result.',
    shortDescription: 'Hand a self-contained "task" to a sub-agent that may use only the named "tools" and returns its final answer; calls in one step run in parallel.',
    category: 'memory',
    access: 'read',
    source: untrusted('sub_agent'),
    sink: persistsTo('delegate', 'a sub-agent'),
    input: z.object({
      task: z.string().trim().min(1).max(8000).describe('The complete sub-task, self-contained'),
      tools: z.array(z.string().min(1).max(200)).max(64).describe('Names of your tools the sub-agent may use'),
      maxIterations: z.number().int().min(1).max(50).optional().describe('Its step limit (default: the one in Settings)')
    }),
    summary: (args) => args.task,
    preview: (args) => ({
      title: text('title'),
      fields: [
        { label: text('task'), value: args.task, arg: 'task' },
        { label: text('tools'), value: args.tools.join(', ') || '—', arg: 'tools' }
      ]
    }),
    messages: {
      en: {
        title: 'Delegate to a sub-agent',
        task: 'Task',
        tools: 'Tools',
        'result.completed': 'The sub-agent finished in {steps} steps.',
        'result.max_iterations': 'The sub-agent stopped at its step limit ({steps}).',
        'result.cancelled': 'The sub-agent was cancelled.',
        'result.failed': 'The sub-agent failed: {error}'
      },
      'zh-CN': {
        title: '交给子智能体',
        task: '任务',
        tools: '工具',
        'result.completed': '子智能体用 {steps} 步完成了任务。',
        'result.max_iterations': '子智能体达到步数上限（{steps}）后停止。',
        'result.cancelled': '子智能体已取消。',
        'result.failed': '子智能体失败：{error}'
      }
    },
    run: async (args, ctx) => {
      let result: ChildRunResult
      try {
        result = await services.startChildRun({
          parentRunId: ctx.runId,
          parentCallId: ctx.callId,
          conversationId: ctx.conversationId,
          workspace: ctx.workspace,
          task: args.task,
          tools: args.tools,
          ...(args.maxIterations !== undefined ? { maxIterations: args.maxIterations } : {}),
          signal: ctx.signal
        })
      } catch (error) {
        return fail(`The sub-agent did not start: ${errorMessage(error)}`)
      }
      const attachments: ToolAttachment[] = result.images.map((image) => ({ kind: 'image', mediaType: image.mediaType, data: image.data, ...(image.name ? { name: image.name } : {}) }))
      const steps = result.iterations
      if (result.status === 'failed') {
        return { ...withDisplay(fail(`The sub-agent failed: ${result.error ?? 'unknown error'}`), text('result.failed', { error: result.error ?? '' })), attachments }
      }
      const note = result.status === 'completed' ? '' : result.status === 'cancelled' ? '\n[The sub-agent was cancelled.]' : `\n[The sub-agent stopped at its step limit (${steps}); its answer may be incomplete.]`
      const line = result.status === 'completed' ? text('result.completed', { steps }) : result.status === 'cancelled' ? text('result.cancelled') : text('result.max_iterations', { steps })
      return { ...withDisplay(ok((result.text || '(The sub-agent gave no answer.)') + note), line), attachments }
    }
  })
}
