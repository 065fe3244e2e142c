/**
 * Offline OCR with tesseract.js (Tesseract compiled to WASM, in worker threads of its own, so the
 * app's main thread never waits on it) and the Chinese and English LSTM models installed with the
 * app. One image is read at a time; calls wait their turn.
 */
import type Tesseract from 'tesseract.js'
import { OCR_LANGUAGES, OcrUnavailableError, installedLanguageData, prepareLanguageDirectory, type LanguageDataResolver, type OcrLanguage } from './language-data'
import type { OcrEngine, OcrLine, OcrResult } from './ocr-engine'
import { lineBands } from './line-bands'
import { linesFromBlocks, type TesseractBlock } from './ocr-lines'
import { cropPrepared, prepareForOcr, type PreparedImage } from './preprocess'
import { chineseReadingWins, worthReadingInChinese } from './second-reading'

export interface TesseractOcrOptions {
  /** Where each language's data is (default: the installed @tesseract.js-data packages). */
  languageData?: LanguageDataResolver
  /** Where the directory of language files is made (default: `<os temp>/deskclaw-ocr-<uid>`). */
  cacheDir?: string
  /** How long starting the engine may take (default 60 s; loading the models takes under a second). */
  startTimeoutMs?: number
}

/**
 * Tesseract's settings, as the config file it reads when it starts.
 * - Single block: each crop is read one line at a time (line-bands.ts).
 * - Spaces as seen: otherwise Tesseract puts a space between every two Chinese characters.
 * - A word read by the other model must also score better, not only be a dictionary word, to
 *   replace the first model's reading (short Chinese names were read as English words: 产品群 as "Front").
 * - Not `tessedit_load_sublangs ~chi_sim_vert` (to skip the vertical-text model the Chinese data
 *   asks for, which is not installed): it also weakened the Chinese model itself (measured: a
 *   header `产品群（旧）` read as `产品群 (18)` with it, right without it). Tesseract's complaint about
 *   the missing model is kept off the console instead (quietStartup).
 */
const ENGINE_CONFIG = [
  'tessedit_pageseg_mode 6',
  'preserve_interword_spaces 1',
  'classify_max_rating_ratio 1'
].join('\n')

export class TesseractOcr implements OcrEngine {
  /** Chinese and English: reads everything. */
  private readonly mixed: LazyEngine
  /** Chinese alone, started only when a line needs a second reading (second-reading.ts). */
  private readonly chinese: LazyEngine
  private queue: Promise<unknown> = Promise.resolve()

  constructor(options: TesseractOcrOptions = {}) {
    const languageData = options.languageData ?? installedLanguageData
    const timeoutMs = options.startTimeoutMs ?? 60_000
    const start = (languages: readonly OcrLanguage[]) => (onExit: () => void) =>
      startEngine(languages, prepareLanguageDirectory(languageData, options.cacheDir), timeoutMs, onExit)
    this.mixed = new LazyEngine(start(OCR_LANGUAGES))
    this.chinese = new LazyEngine(start(['chi_sim']))
  }

  recognize(png: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<OcrResult> {
    const { signal } = options
    if (signal?.aborted) return Promise.reject(abortError(signal))
    const turn = this.queue.then(async () => {
      throwIfAborted(signal)
      const engine = await this.mixed.get()
      throwIfAborted(signal)
      const started = performance.now()
      // One line at a time (line-bands.ts); each line's boxes are moved from its strip into the crop.
      const { default: sharp } = await import('sharp')
      const grey = await sharp(png).flatten({ background: '#ffffff' }).greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true })
      const lines: OcrLine[] = []
      for (const band of lineBands(grey.data, grey.info.width, grey.info.height)) {
        throwIfAborted(signal)
        // A highlighted or dark row is inverted and stretched to dark-on-light first: white on blue was misread (张伟伟 → 张伟侍).
        const cut = sharp(png).extract({ left: 0, top: band.y, width: grey.info.width, height: band.height })
        const strip = await (band.dark ? cut.flatten({ background: '#000000' }).greyscale().negate({ alpha: false }).normalise() : cut).png().toBuffer()
        const prepared = await prepareForOcr(strip)
        const page = await engine.recognize(prepared.image)
        const read = await this.readAgainInChinese(linesFromBlocks(page.blocks as TesseractBlock[] | null, prepared.scale, prepared), prepared, signal)
        for (const line of read) lines.push({ ...line, box: { ...line.box, y: line.box.y + band.y } })
      }
      throwIfAborted(signal)
      return { text: lines.map((line) => line.text).join('\n'), lines, durationMs: performance.now() - started }
    })
    this.queue = turn.catch(() => undefined)
    // Tesseract cannot be interrupted: an abort answers at once and the reading's result is dropped.
    return signal ? untilAborted(turn, signal) : turn
  }

  async close(): Promise<void> {
    await Promise.all([this.mixed.close(), this.chinese.close()])
  }

  /** Lines that may be a Chinese name misread as English, read again with the Chinese model alone. */
  private async readAgainInChinese(lines: OcrLine[], prepared: PreparedImage, signal: AbortSignal | undefined): Promise<OcrLine[]> {
    const result: OcrLine[] = []
    for (const line of lines) {
      if (!worthReadingInChinese(line)) {
        result.push(line)
        continue
      }
      throwIfAborted(signal)
      const again = await this.chinese
        .get()
        .then((engine) => engine.recognize(cropPrepared(prepared, line.box)))
        // The first reading stands when the second cannot be had.
        .catch(() => null)
      const readings = again ? linesFromBlocks(again.blocks as TesseractBlock[] | null, 1, { width: Infinity, height: Infinity }) : []
      const text = readings.map((reading) => reading.text).join(' ')
      result.push(
        chineseReadingWins(text)
          ? { ...line, text, confidence: readings.reduce((sum, reading) => sum + reading.confidence, 0) / readings.length }
          : line
      )
    }
    return result
  }
}

interface RunningEngine {
  recognize(image: Uint8Array): Promise<Tesseract.Page>
  terminate(): Promise<void>
}

/** An engine started on first use; one that failed to start, or stopped, is started again by the next use. */
class LazyEngine {
  private engine: Promise<RunningEngine> | null = null

  constructor(private readonly start: (onExit: () => void) => Promise<RunningEngine>) {}

  get(): Promise<RunningEngine> {
    if (!this.engine) {
      const engine: Promise<RunningEngine> = Promise.resolve().then(() => this.start(() => this.forget(engine)))
      engine.catch(() => this.forget(engine))
      this.engine = engine
    }
    return this.engine
  }

  async close(): Promise<void> {
    const engine = this.engine
    this.engine = null
    await (await engine?.catch(() => null))?.terminate()
  }

  private forget(engine: Promise<RunningEngine>): void {
    if (this.engine === engine) this.engine = null
  }
}

async function startEngine(languages: readonly OcrLanguage[], langPath: string, timeoutMs: number, onExit: () => void): Promise<RunningEngine> {
  // Loaded on first use: the app must start even where the OCR engine cannot load.
  const { createWorker, OEM } = await import('tesseract.js')
  let starting = true
  let failStart: (reason: unknown) => void = () => {}
  const failed = new Promise<never>((_, reject) => (failStart = reject))
  const timer = setTimeout(() => failStart(`no answer in ${Math.round(timeoutMs / 1000)} s`), timeoutMs)
  // langPath always: without it tesseract.js downloads the models from a CDN. No cache: the data
  // is read from langPath at each start, never copied into the working directory.
  const creating = createWorker(
    [...languages],
    OEM.LSTM_ONLY,
    {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      logger: () => {},
      // A failed job is rejected to its caller; without a handler tesseract.js also throws it from
      // its message listener, which would crash the app. While starting, nothing else reports it.
      errorHandler: (error: unknown) => {
        if (starting) failStart(error)
      }
    },
    ENGINE_CONFIG
  )
  let worker: Tesseract.Worker
  const loud = quietStartup()
  try {
    worker = await Promise.race([creating, failed])
  } catch (error) {
    void creating.then(
      (late) => late.terminate(),
      () => undefined
    )
    throw new OcrUnavailableError(`OCR unavailable: the OCR engine did not start (${describeFailure(error)})`)
  } finally {
    starting = false
    clearTimeout(timer)
    // The worker's stderr reaches this process asynchronously, after the start resolves: keep the filter a while.
    setTimeout(loud, STARTUP_NOISE_MS).unref()
  }

  // A worker thread that dies (out of memory, a crash in the WASM) fails the reading in progress,
  // and the next call starts a new one, instead of leaving the caller waiting for ever.
  let lost: (reason: Error) => void = () => {}
  const gone = new Promise<never>((_, reject) => (lost = reject))
  gone.catch(() => undefined)
  const thread = (worker as unknown as { worker?: NodeJS.EventEmitter }).worker
  thread?.on('error', (error: unknown) => lost(new Error(`the OCR engine stopped (${describeFailure(error)})`)))
  thread?.once('exit', () => {
    lost(new Error('the OCR engine stopped'))
    onExit()
  })
  return {
    async recognize(image) {
      try {
        const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength)
        const { data } = await Promise.race([worker.recognize(bytes, {}, { blocks: true, text: false }), gone])
        return data
      } catch (error) {
        throw error instanceof Error ? error : new Error(`OCR failed: ${describeFailure(error)}`)
      }
    },
    async terminate() {
      await worker.terminate()
    }
  }
}

/** What Tesseract prints while loading the Chinese data without its vertical-text model: harmless, and not for users. */
const STARTUP_NOISE = /traineddata|TESSDATA_PREFIX|Failed loading language/
const STARTUP_NOISE_MS = 3_000

/** Engines starting now (the filter is installed once, whatever their number). */
let quieting = 0
let loudWrite: typeof process.stderr.write | null = null

/**
 * Keeps Tesseract's start-up complaint off the console (the worker thread's stderr is written
 * through this process's); returns the function that ends this start's share of the filter.
 */
function quietStartup(): () => void {
  if (quieting++ === 0) {
    const write = (loudWrite = process.stderr.write)
    process.stderr.write = function (chunk: unknown, ...rest: unknown[]): boolean {
      if (STARTUP_NOISE.test(String(chunk))) return true
      return (write as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest)
    } as typeof process.stderr.write
  }
  let ended = false
  return () => {
    if (ended) return
    ended = true
    if (--quieting === 0 && loudWrite) {
      process.stderr.write = loudWrite
      loudWrite = null
    }
  }
}

/** tesseract.js rejects with strings, Errors or error events: one line for the user whichever. */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : String(JSON.stringify(error))
  return message.split('\n')[0]!.replace(/^Error: /, '')
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The OCR reading was aborted', 'AbortError')
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal)
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
