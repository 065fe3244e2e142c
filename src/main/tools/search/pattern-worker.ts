import { Worker } from 'node:worker_threads'

/*
 * grep's regular expression runs in a worker thread (docs/tools.md, "grep and glob"): a model's
 * pattern can backtrack for hours on one line (`(a+)+$`), and JavaScript cannot interrupt a regular
 * expression from the thread that runs it. In a worker, Stop and the time limit terminate the
 * thread, which V8 interrupts even inside a match; the app's own thread never runs the pattern.
 *
 * The worker's code is plain JavaScript in a string (`eval: true`): no file to bundle or locate, the
 * same in the app, the CLI and tests.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads')
const regex = new RegExp(workerData.source, workerData.flags)
const { context, maxLineChars } = workerData
function searchOne(file) {
  const lines = file.text.split(/\r?\n/)
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  const hits = []
  for (let i = 0; i < lines.length && hits.length < file.room; i++) if (regex.test(lines[i])) hits.push(i)
  if (hits.length === 0) return { rel: file.rel, count: 0, lines: [] }
  const shown = []
  const hitSet = new Set(hits)
  let last = -1
  for (const hit of hits) {
    const from = Math.max(hit - context, last + 1)
    if (last >= 0 && from > last + 1) shown.push('--')
    for (let i = from; i <= Math.min(hit + context, lines.length - 1); i++) {
      if (i <= last) continue
      const body = lines[i].length > maxLineChars ? lines[i].slice(0, maxLineChars) + '[…]' : lines[i]
      const mark = hitSet.has(i) ? ':' : '-'
      shown.push(file.rel + mark + (i + 1) + mark + body)
      last = i
    }
  }
  return { rel: file.rel, count: hits.length, lines: shown }
}
parentPort.on('message', (batch) => {
  parentPort.postMessage({ id: batch.id, results: batch.files.map(searchOne) })
})
`

/** One file to search: its path as shown, its text, and how many matches it may still contribute. */
export interface FileToSearch {
  rel: string
  text: string
  room: number
}

/** The matches of one file as ripgrep prints them: `path:line:text`, context lines `path-line-text`. */
export interface FileMatches {
  rel: string
  count: number
  lines: string[]
}

export type BatchOutcome = { ok: true; results: FileMatches[] } | { ok: false; why: 'stopped' | 'timeout' | 'failed'; detail?: string }

export interface PatternWorkerOptions {
  source: string
  flags: string
  context: number
  maxLineChars: number
  /** The whole search's time limit: past it the worker is terminated. */
  timeLimitMs: number
  signal: AbortSignal
}

/** A worker thread running one compiled pattern over batches of files, until Stop, the time limit, or close(). */
export class PatternWorker {
  private readonly worker: Worker
  private readonly deadline: number
  private nextId = 0
  private ended: BatchOutcome | null = null
  private pending: { id: number; settle: (outcome: BatchOutcome) => void } | null = null
  private readonly timer: NodeJS.Timeout
  private readonly onAbort = () => this.end({ ok: false, why: 'stopped' })

  constructor(private readonly options: PatternWorkerOptions) {
    this.deadline = Date.now() + options.timeLimitMs
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: options.source, flags: options.flags, context: options.context, maxLineChars: options.maxLineChars },
      // The text of a file is held twice at most (here and in the batch): a small heap keeps a runaway pattern from eating memory.
      resourceLimits: { maxOldGenerationSizeMb: 256 }
    })
    this.worker.unref()
    this.worker.on('message', (message: { id: number; results: FileMatches[] }) => {
      if (this.pending?.id === message.id) {
        const { settle } = this.pending
        this.pending = null
        settle({ ok: true, results: message.results })
      }
    })
    this.worker.on('error', (error) => this.end({ ok: false, why: 'failed', detail: error.message }))
    this.worker.on('exit', () => this.end({ ok: false, why: 'failed', detail: 'the search stopped' }))
    this.timer = setTimeout(() => this.end({ ok: false, why: 'timeout' }), options.timeLimitMs)
    this.timer.unref()
    if (options.signal.aborted) this.onAbort()
    else options.signal.addEventListener('abort', this.onAbort, { once: true })
  }

  /** Why the search ended early, once it has (Stop, the time limit, a failure). */
  get stoppedBecause(): BatchOutcome | null {
    return this.ended
  }

  /** Milliseconds left of the time limit. */
  get remainingMs(): number {
    return Math.max(0, this.deadline - Date.now())
  }

  /** Matches a batch of files in the worker; resolves early when Stop or the time limit ends the search. */
  search(files: FileToSearch[]): Promise<BatchOutcome> {
    if (this.ended) return Promise.resolve(this.ended)
    const id = this.nextId++
    return new Promise((settle) => {
      this.pending = { id, settle }
      this.worker.postMessage({ id, files })
    })
  }

  /** Ends the worker (idempotent). */
  async close(): Promise<void> {
    this.end({ ok: false, why: 'stopped' })
  }

  private end(outcome: BatchOutcome): void {
    if (this.ended) return
    this.ended = outcome
    clearTimeout(this.timer)
    this.options.signal.removeEventListener('abort', this.onAbort)
    void this.worker.terminate().catch(() => undefined)
    const pending = this.pending
    this.pending = null
    pending?.settle(outcome)
  }
}
