import { describe, expect, it } from 'vitest'
import { applyWatermark, checkSendAllowed, MemorySendLog, TaskQueue, TaskTimeoutError, ZERO_WIDTH_MARK } from '../../../src/main/chat-apps'

const weixin = { id: 'weixin', name: 'WeChat' }
const settings = (over: Partial<Parameters<typeof checkSendAllowed>[0]> = {}) => ({
  chatApps: { weixin: { enabled: true, allowlist: [] as string[] } },
  chatSendMinIntervalSec: 10,
  chatSendPerHour: 20,
  ...over
})

describe('what may be sent, before the screen is touched', () => {
  it('a disabled or unknown app is refused with how to enable it', () => {
    const log = new MemorySendLog()
    expect(checkSendAllowed(settings({ chatApps: {} }), weixin, '产品群', log)?.code).toBe('disabled')
    const off = checkSendAllowed(settings({ chatApps: { weixin: { enabled: false, allowlist: [] } } }), weixin, '产品群', log)
    expect(off?.message).toMatch(/deskclaw desktop enable weixin/)
  })

  it('an allowlist admits exactly its chats (not one whose name contains them)', () => {
    const log = new MemorySendLog()
    const s = settings({ chatApps: { weixin: { enabled: true, allowlist: ['产品群', '张伟'] } } })
    expect(checkSendAllowed(s, weixin, '产品群', log)).toBeNull()
    expect(checkSendAllowed(s, weixin, ' 张 伟 ', log)).toBeNull()
    expect(checkSendAllowed(s, weixin, '产品群（旧）', log)?.code).toBe('not_allowlisted')
    expect(checkSendAllowed(s, weixin, '张伟 (HR)', log)?.code).toBe('not_allowlisted')
  })

  it('rate limit per chat: one per interval, a cap per hour; only pressed sends count', () => {
    const log = new MemorySendLog()
    const now = 1_000_000_000
    log.record({ app: 'weixin', target: '产品群', status: 'sent', at: now - 4_000, reason: '' })
    const refusal = checkSendAllowed(settings(), weixin, '产品群', log, now)
    expect(refusal?.code).toBe('rate_interval')
    expect(refusal?.message).toMatch(/try again in 6 s/)
    // Another chat, and a not-sent attempt, do not count.
    expect(checkSendAllowed(settings(), weixin, '张伟', log, now)).toBeNull()
    log.record({ app: 'weixin', target: '张伟', status: 'not_sent', at: now - 1_000, reason: 'ambiguous' })
    expect(checkSendAllowed(settings(), weixin, '张伟', log, now)).toBeNull()
    // An unknown outcome pressed the key: it counts.
    log.record({ app: 'weixin', target: '张伟', status: 'unknown', at: now - 1_000, reason: '' })
    expect(checkSendAllowed(settings(), weixin, '张伟', log, now)?.code).toBe('rate_interval')
    for (let i = 0; i < 3; i++) log.record({ app: 'weixin', target: 'Design', status: 'sent', at: now - 60_000 * (i + 1), reason: '' })
    expect(checkSendAllowed(settings({ chatSendPerHour: 3 }), weixin, 'Design', log, now)?.code).toBe('rate_hourly')
    expect(checkSendAllowed(settings({ chatSendPerHour: 4 }), weixin, 'Design', log, now)).toBeNull()
  })
})

describe('watermarks', () => {
  it('suffix, an invisible marker, or nothing', () => {
    expect(applyWatermark('hi', 'suffix', ' [DeskClaw]')).toBe('hi [DeskClaw]')
    expect(applyWatermark('hi', 'zero-width')).toBe(`hi${ZERO_WIDTH_MARK}`)
    expect([...ZERO_WIDTH_MARK].every((c) => /\p{Cf}/u.test(c))).toBe(true)
    expect(applyWatermark('hi', 'none')).toBe('hi')
    expect(applyWatermark('hi', 'suffix', '  ')).toBe('hi')
  })
})

describe('the task queue (runAndWait with a deadline)', () => {
  it('runs tasks one at a time, in order', async () => {
    const queue = new TaskQueue()
    const log: string[] = []
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`)
      await new Promise((r) => setTimeout(r, ms))
      log.push(`end ${name}`)
      return name
    }
    const results = await Promise.all([queue.runAndWait(task('a', 30), { timeoutMs: 1000 }), queue.runAndWait(task('b', 5), { timeoutMs: 1000 })])
    expect(results).toEqual(['a', 'b'])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b'])
    expect(queue.size).toBe(0)
  })

  it('a task past its deadline is cancelled through its signal, and the next one runs', async () => {
    const queue = new TaskQueue()
    let sawAbort: unknown
    const slow = queue.runAndWait(
      (deadline) =>
        new Promise<string>((resolve) => {
          deadline.signal.addEventListener('abort', () => {
            sawAbort = deadline.signal.reason
            resolve('cancelled')
          })
        }),
      { timeoutMs: 50 }
    )
    const next = queue.runAndWait(async () => 'next', { timeoutMs: 1000 })
    expect(await slow).toBe('cancelled')
    expect(sawAbort).toBeInstanceOf(TaskTimeoutError)
    expect(await next).toBe('next')
  })

  it('the clock stops while a person is asked', async () => {
    const queue = new TaskQueue()
    const result = await queue.runAndWait(
      async (deadline) => {
        deadline.pause()
        await new Promise((r) => setTimeout(r, 120)) // longer than the deadline
        deadline.resume()
        await new Promise((r) => setTimeout(r, 10))
        return deadline.signal.aborted ? 'timed out' : 'in time'
      },
      { timeoutMs: 60 }
    )
    expect(result).toBe('in time')
  })

  it("the caller's own signal cancels the task too", async () => {
    const queue = new TaskQueue()
    const controller = new AbortController()
    const running = queue.runAndWait((d) => new Promise<boolean>((resolve) => d.signal.addEventListener('abort', () => resolve(true))), { timeoutMs: 5000, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stop')), 20)
    expect(await running).toBe(true)
  })
})

describe('reading the text back (OCR tolerance)', () => {
  it('accepts what OCR does to a text, not another text', async () => {
    const { readsText, newestText } = await import('../../../src/main/chat-apps')
    expect(readsText('第一条 [DeskCclaw', '第一条 [DeskClaw]')).toBe(true) // a caret and a doubled letter
    expect(readsText('下午好因[Deskclaw', '下午好 👋 [DeskClaw]')).toBe(true) // the emoji read as one stray character
    expect(readsText('你 好 ， 世 界', '你好，世界')).toBe(true)
    expect(readsText('', '你好')).toBe(false)
    expect(readsText('明天上午十点评审', '今天下午三点开会')).toBe(false)
    expect(readsText('ok', 'no')).toBe(false)
    const lines = ['明天上午十点评审', 'old message', '今天下午三点开会，', '请准时 [DeskClaw]'].map((text, i) => ({ text, confidence: 1, box: { x: 0, y: i * 20, width: 100, height: 16 } }))
    expect(newestText(lines, '今天下午三点开会，请准时 [DeskClaw]')).toBe('今天下午三点开会，\n请准时 [DeskClaw]')
  })
})
