import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { NativeRuntime, OUTPUT_CAP_CHARS } from '../../../src/main/runtime'
import { hostProcessesMatching, sleep, tempWorkspace, removeTempWorkspaces } from './helpers'

afterAll(removeTempWorkspaces)

const isPosix = process.platform !== 'win32'

describe.runIf(isPosix)('native runtime', () => {
  afterEach(() => {
    delete process.env.DESKCLAW_TEST_API_KEY
  })

  it('runs a shell line, reports exit code, output and its own name', async () => {
    const result = await new NativeRuntime().exec({ command: 'echo out; echo err >&2; exit 3', cwd: tempWorkspace(), timeoutMs: 5_000 })
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: 'out\n', stderr: 'err\n', truncated: false, runtime: 'native' })
  })

  it('runs an argv without a shell (no expansion)', async () => {
    const result = await new NativeRuntime().exec({ argv: ['echo', '$HOME', '*'], cwd: tempWorkspace(), timeoutMs: 5_000 })
    expect(result.stdout).toBe('$HOME *\n')
  })

  it('scrubs secrets unless the user allows them through (allowEnv)', async () => {
    process.env.DESKCLAW_TEST_API_KEY = 'sk-test-123'
    const command = 'echo "key=${DESKCLAW_TEST_API_KEY:-none}"'
    const scrubbed = await new NativeRuntime().exec({ command, cwd: tempWorkspace(), timeoutMs: 5_000 })
    expect(scrubbed.stdout).toBe('key=none\n')
    const allowed = await new NativeRuntime({ allowEnv: ['DESKCLAW_TEST_API_KEY'] }).exec({ command, cwd: tempWorkspace(), timeoutMs: 5_000 })
    expect(allowed.stdout).toBe('key=sk-test-123\n')
  })

  it('keeps at most OUTPUT_CAP_CHARS per stream and says it truncated', async () => {
    const result = await new NativeRuntime().exec({
      command: `head -c ${OUTPUT_CAP_CHARS + 1000} /dev/zero | tr '\\0' a; echo done >&2`,
      cwd: tempWorkspace(),
      timeoutMs: 20_000
    })
    expect(result.exitCode).toBe(0)
    expect(result.truncated).toBe(true)
    expect(result.stdout.length).toBe(OUTPUT_CAP_CHARS)
    expect(result.stderr).toBe('done\n')
  })

  it('streams output live, before the command ends', async () => {
    const seen: number[] = []
    const started = Date.now()
    const result = await new NativeRuntime().exec({
      command: 'echo first; sleep 1; echo second',
      cwd: tempWorkspace(),
      timeoutMs: 5_000,
      onOutput: (_stream, chunk) => {
        if (chunk.includes('first')) seen.push(Date.now() - started)
      }
    })
    expect(result.stdout).toBe('first\nsecond\n')
    expect(seen[0]).toBeLessThan(result.durationMs - 500)
  })

  it('a cancel stops the whole process group within a second', async () => {
    const controller = new AbortController()
    const running = new NativeRuntime().exec({ command: 'sleep 913 & sleep 913', cwd: tempWorkspace(), timeoutMs: 60_000, signal: controller.signal })
    await sleep(300)
    const abortedAt = Date.now()
    controller.abort()
    const result = await running
    expect(Date.now() - abortedAt).toBeLessThan(1_000)
    expect(result).toMatchObject({ cancelled: true, timedOut: false, exitCode: null, signal: 'SIGTERM' })
    await sleep(100)
    expect(hostProcessesMatching('sleep 913')).toEqual([])
  })

  it('a missing working folder is one clear error', async () => {
    await expect(new NativeRuntime().exec({ command: 'true', cwd: '/nonexistent/deskclaw', timeoutMs: 5_000 })).rejects.toThrow(
      'Cannot run the command: the folder /nonexistent/deskclaw does not exist.'
    )
  })
})
