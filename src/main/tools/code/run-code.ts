import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { CodeStrictness } from '../../../shared'
import { RuntimeUnavailableError, SANDBOX_RUNTIME_NAMES, type Runtime } from '../../runtime'
import { defineTool, fail, ok, text, ToolRefusal, withDisplay, type AnyTool } from '../define-tool'
import { decideCodePlacement, looksForSandbox, type CodePlacement, type SandboxAvailability } from './placement'
import { sendsTo, untrusted } from '../../provenance'

const DEFAULT_TIMEOUT_S = 30
const MAX_TIMEOUT_S = 300
/** One argv word: Linux refuses a single argument over 128 KiB (MAX_ARG_STRLEN). */
const MAX_CODE_CHARS = 100_000
const LANGUAGES = ['python', 'javascript'] as const
type Language = (typeof LANGUAGES)[number]

/** The snippet is one argument of the interpreter: nothing is written to the workspace to run it. */
function interpreterArgv(language: Language, code: string): string[] {
  return language === 'python' ? ['python3', '-c', code] : ['node', '-e', code]
}

interface Decision {
  level: CodeStrictness
  placement: CodePlacement
  /** The runtime that runs it (for a refusal: the one that was selected). */
  runtime: Runtime
  /** Why no sandbox can run, when one was looked for and none can. */
  reason?: string
  /** Runs natively because no sandbox could be found (not because the level says so): shown, guarded, and asked in full autonomy. */
  fallback: boolean
}

/** How long "no sandbox can run" is believed: a dead Docker engine takes seconds to say so, every call would wait for it. */
const SANDBOX_CHECK_TTL_MS = 30_000

/** Unsandboxed runs the approval has shown, by call content, so a sandbox lost after approval never turns into a native run. */
const PREVIEWED_NATIVE_MAX = 100

/** A sandbox for code when the shell's runtime is native: docker, bwrap or sandbox-exec, never native (a fail-closed SelectedRuntime). */
export interface CodeSandbox extends Runtime {
  /** Null when a sandbox can run; else why none can. */
  unavailableReason(): Promise<string | null>
}

export interface CodeToolServices {
  /** The runtime the settings chose for shell commands. */
  runtime: Runtime
  /** Where code runs when that runtime is not a sandbox. */
  sandbox: CodeSandbox
  /** Settings → codeStrictness, read at each call. */
  strictness(): CodeStrictness
}

export function createRunCodeTool(services: CodeToolServices): AnyTool {
  const previewedNative = new Set<string>()

  let lastMissing: { at: number; reason: string } | null = null

  /** Null when a sandbox for code can run; else why not (a failure is remembered for a while). */
  async function missingSandbox(): Promise<string | null> {
    if (lastMissing && Date.now() - lastMissing.at < SANDBOX_CHECK_TTL_MS) return lastMissing.reason
    const reason = await services.sandbox.unavailableReason()
    lastMissing = reason === null ? null : { at: Date.now(), reason }
    return reason
  }

  async function decide(): Promise<Decision> {
    const level = services.strictness()
    await services.runtime.ready?.()
    let availability: SandboxAvailability = 'selected'
    let reason: string | undefined
    if (!SANDBOX_RUNTIME_NAMES.has(services.runtime.name)) {
      // trusted runs in the shell's runtime either way: nothing is looked for, nothing is said about it.
      reason = looksForSandbox(level) ? ((await missingSandbox()) ?? undefined) : undefined
      availability = looksForSandbox(level) && reason === undefined ? 'other' : 'none'
    }
    const placement = decideCodePlacement(level, availability)
    const runtime = placement.kind === 'run' && placement.runtime === 'sandbox' ? services.sandbox : services.runtime
    const fallback = placement.kind === 'run' && !placement.sandboxed && reason !== undefined
    return { level, placement, runtime, fallback, ...(reason ? { reason } : {}) }
  }

  function refusal(decision: Decision): ToolRefusal {
    const why = decision.reason ?? 'no sandbox can run here'
    return new ToolRefusal(
      `run_code refused: the code strictness level is "strict", which runs code only in a sandbox (bubblewrap or Docker), and none can run here (${why}). ` +
        'Install bubblewrap or start Docker, or choose another level in Settings → Safety.',
      text('result.strictNoSandbox', { reason: why })
    )
  }

  return defineTool({
    name: 'run_code',
    repeat: 'may-differ',
    description:
      'Run a Python or JavaScript (Node.js) snippet and get its exit code, stdout and stderr. ' +
      'It runs in a sandbox with no network; whether it may write to the workspace depends on the strictness level the user set ' +
      `(strict: read-only). Stopped after "timeoutSec" seconds (default ${DEFAULT_TIMEOUT_S}). Print what you want to see; stdin is empty.`,
    shortDescription: `Run a "language" (python or javascript) snippet "code" in a sandbox without network and get its exit code and output; stopped after "timeoutSec" seconds.`,
    category: 'shell',
    access: 'execute',
    source: untrusted('command_output'),
    sink: sendsTo('code', () => null),
    input: z.object({
      language: z.enum(LANGUAGES).describe('python (python3) or javascript (node)'),
      code: z.string().min(1).max(MAX_CODE_CHARS).describe('The program text'),
      timeoutSec: z.number().int().min(1).max(MAX_TIMEOUT_S).optional().describe(`Seconds before it is stopped (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S})`)
    }),
    summary: (args) => text('summary', { language: args.language === 'python' ? 'Python' : 'JavaScript', lines: args.code.split('\n').length }),
    async preview(args, { workspace }) {
      const decision = await decide()
      if (decision.placement.kind === 'refuse') throw refusal(decision)
      const { placement, runtime } = decision
      if (decision.fallback) remember(previewedNative, callKey(args))
      else previewedNative.delete(callKey(args))
      return {
        title: text('title'),
        fields: [
          { label: text('language'), value: args.language, display: text(`language.${args.language}`) },
          { label: text('code'), value: args.code, code: true, arg: 'code' },
          { label: text('level'), value: decision.level, display: text(`level.${decision.level}`) },
          { label: text('runsIn'), value: runtime.name, display: text(placement.sandboxed ? 'runsIn.sandbox' : 'runsIn.native', { runtime: runtime.name }) },
          { label: text('workspace'), value: placement.workspace, display: text(placement.workspace === 'read-only' ? 'workspace.readOnly' : 'workspace.writable', { folder: workspace }) },
          { label: text('network'), value: placement.sandboxed ? 'none' : 'open', display: text(placement.sandboxed ? 'network.none' : 'network.open') },
          ...(decision.fallback ? [{ label: text('note'), value: decision.reason ?? '', display: text('note.noSandbox', { reason: decision.reason ?? '' }) }] : []),
          { label: text('timeout'), value: `${args.timeoutSec ?? DEFAULT_TIMEOUT_S} s` }
        ]
      }
    },
    messages: {
      en: {
        title: 'Run code',
        summary: '{language}, {lines} lines',
        language: 'Language',
        'language.python': 'Python (python3)',
        'language.javascript': 'JavaScript (node)',
        code: 'Code',
        level: 'Strictness',
        'level.strict': 'strict: sandbox only, workspace read-only',
        'level.standard': 'standard: sandbox when available, workspace writable',
        'level.trusted': 'trusted: the runtime chosen for shell commands',
        runsIn: 'Runs in',
        'runsIn.sandbox': '{runtime} (sandbox)',
        'runsIn.native': '{runtime} (no sandbox: runs directly on this computer)',
        workspace: 'Workspace',
        'workspace.readOnly': 'read-only ({folder})',
        'workspace.writable': 'writable ({folder})',
        network: 'Network',
        'network.none': 'no network',
        'network.open': 'network available (no sandbox)',
        note: 'Note',
        'note.noSandbox': 'No sandbox can run here, so this code runs natively if you allow it: {reason}',
        timeout: 'Timeout',
        'result.exited': 'Exited with code {code} (ran in {runtime}).',
        'result.killed': 'Killed by {signal} (ran in {runtime}).',
        'result.timedOut': 'Timed out after {seconds} s and was stopped.',
        'result.cancelled': 'Cancelled by the user.',
        'result.outOfMemory': 'Ran out of memory in the sandbox and was killed.',
        'result.strictNoSandbox': 'Refused: the strictness level "strict" runs code only in a sandbox (bubblewrap or Docker), and none can run here ({reason}).',
        'result.sandboxLost': 'Refused: the sandbox this code was approved to run in is no longer available; it was not run natively.',
        'result.unavailable': 'Could not run: {reason}'
      },
      'zh-CN': {
        title: '运行代码',
        summary: '{language}，{lines} 行',
        language: '语言',
        'language.python': 'Python（python3）',
        'language.javascript': 'JavaScript（node）',
        code: '代码',
        level: '严格级别',
        'level.strict': '严格：只在沙箱中运行，工作区只读',
        'level.standard': '标准：有沙箱时在沙箱中运行，工作区可写',
        'level.trusted': '信任：在为 shell 命令选定的运行环境中运行',
        runsIn: '运行位置',
        'runsIn.sandbox': '{runtime}（沙箱）',
        'runsIn.native': '{runtime}（无沙箱：直接在本机运行）',
        workspace: '工作区',
        'workspace.readOnly': '只读（{folder}）',
        'workspace.writable': '可写（{folder}）',
        network: '网络',
        'network.none': '无网络',
        'network.open': '可访问网络（无沙箱）',
        note: '注意',
        'note.noSandbox': '这里没有可用的沙箱，若你允许，这段代码将直接在本机运行：{reason}',
        timeout: '超时',
        'result.exited': '退出码 {code}（运行于 {runtime}）。',
        'result.killed': '被信号 {signal} 终止（运行于 {runtime}）。',
        'result.timedOut': '超过 {seconds} 秒，已被停止。',
        'result.cancelled': '已被用户取消。',
        'result.outOfMemory': '在沙箱中内存不足，已被终止。',
        'result.strictNoSandbox': '已拒绝：严格级别“严格”只在沙箱（bubblewrap 或 Docker）中运行代码，而这里没有可用的沙箱（{reason}）。',
        'result.sandboxLost': '已拒绝：批准时所用的沙箱已不可用；代码没有改为直接在本机运行。',
        'result.unavailable': '无法运行：{reason}'
      }
    },
    // The preview decided: a call it showed as native for want of a sandbox asks even in full autonomy (docs/tools.md, "run_code").
    runsUnsandboxed: (args) => previewedNative.has(callKey(args)),
    truncationHint: 'Print less (a summary, the first and last items) and run it again.',
    async run(args, ctx) {
      const decision = await decide()
      if (decision.placement.kind === 'refuse') throw refusal(decision)
      const { placement, runtime } = decision
      // Natively for want of a sandbox only when the approval said so: a sandbox that went away meanwhile refuses instead.
      if (decision.fallback && !previewedNative.delete(callKey(args))) {
        throw new ToolRefusal('run_code refused: the sandbox it was approved to run in is no longer available; it was not run natively.', text('result.sandboxLost'))
      }
      const seconds = args.timeoutSec ?? DEFAULT_TIMEOUT_S
      const request = {
        argv: interpreterArgv(args.language, args.code),
        cwd: ctx.workspace,
        workspace: ctx.workspace,
        workspaceReadOnly: placement.workspace === 'read-only',
        conversationId: ctx.conversationId,
        // No .pyc files next to anything; output as it is printed, not at exit.
        env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', NO_COLOR: '1' },
        timeoutMs: seconds * 1000,
        signal: ctx.signal,
        onOutput: ctx.onOutput
      }
      let result: Awaited<ReturnType<Runtime['exec']>>
      try {
        result = await runtime.exec(request)
      } catch (error) {
        // The runtime cannot run at all (engine down, bwrap gone): one clear line, never a crash.
        if (!(error instanceof RuntimeUnavailableError)) throw error
        return withDisplay(fail(`run_code could not run: ${error.message}`), text('result.unavailable', { reason: error.message }))
      }
      const printed = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter(Boolean).join('\n')
      const forUser = result.truncated ? `${printed}\n[…]` : printed
      const body =
        [result.stdout && `stdout:\n${result.stdout.trimEnd()}`, result.stderr && `stderr:\n${result.stderr.trimEnd()}`].filter(Boolean).join('\n\n') || '(no output)'
      const ranIn = result.runtime
      if (result.cancelled) return { ...withDisplay(fail(`Cancelled by the user.\n${body}`), text('result.cancelled')), forUser, ranIn }
      if (result.timedOut) return { ...withDisplay(fail(`Timed out after ${seconds} s and was stopped.\n${body}`), text('result.timedOut', { seconds })), forUser, ranIn }
      if (result.oomKilled) return { ...withDisplay(fail(`Ran out of memory in the sandbox and was killed.\n${body}`), text('result.outOfMemory')), forUser, ranIn }
      const where = `${ranIn}, ${placement.sandboxed ? 'sandboxed, no network' : 'not sandboxed'}, workspace ${placement.workspace}`
      const note = result.truncated ? '\n[output over the runtime limit was dropped]' : ''
      if (result.exitCode === null) {
        return { ...withDisplay(fail(`killed by ${result.signal} (${where})\n${body}${note}`), text('result.killed', { signal: String(result.signal), runtime: ranIn })), forUser, ranIn }
      }
      const output = `exit code ${result.exitCode} (${where})\n${body}${note}`
      const shown = text('result.exited', { code: result.exitCode, runtime: ranIn })
      return { ...withDisplay(result.exitCode === 0 ? ok(output) : fail(output), shown), forUser, ranIn }
    }
  })
}

function callKey(args: { language: string; code: string; timeoutSec?: number }): string {
  return createHash('sha256').update(JSON.stringify([args.language, args.code, args.timeoutSec ?? null])).digest('hex')
}

function remember(set: Set<string>, key: string): void {
  set.delete(key)
  set.add(key)
  if (set.size > PREVIEWED_NATIVE_MAX) set.delete(set.values().next().value as string)
}
