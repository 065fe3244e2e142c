/**
 * The real OCR engine (tesseract.js, the installed Chinese and English data, offline) on crops
 * rendered like a chat app's: a list of chats with overlapping names, a header, a green bubble,
 * dark mode. Rendered with ImageMagick and Noto Sans CJK.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MISSING_LANGUAGE_DATA,
  TesseractOcr,
  findExactLines,
  installedLanguageData,
  normalizeForMatch,
  sameText,
  stripPatterns,
  type OcrResult
} from '../../../src/main/desktop/ocr'
import { prepareForOcr } from '../../../src/main/desktop/ocr/preprocess'
import { requireCapability } from '../../helpers/capability'

const FONT = 'Noto-Sans-CJK-SC'
const fonts = spawnSync('convert', ['-list', 'font'], { encoding: 'utf8' })
const ready = requireCapability('ImageMagick with Noto Sans CJK SC', fonts.status === 0 && fonts.stdout.includes(FONT), 'apt-get install imagemagick fonts-noto-cjk')

const dir = mkdtempSync(join(tmpdir(), 'deskclaw-ocr-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A PNG drawn by ImageMagick: a canvas, then the drawing arguments in order. */
function render(name: string, size: string, background: string, drawing: string[]): Uint8Array {
  const file = join(dir, `${name}.png`)
  const result = spawnSync('convert', ['-size', size, `xc:${background}`, '-font', FONT, ...drawing, file], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`convert failed: ${result.stderr}`)
  return readFileSync(file)
}

const text = (x: number, y: number, px: number, colour: string, value: string): string[] => ['-fill', colour, '-pointsize', String(px), '-annotate', `+${x}+${y}`, value]
const rect = (colour: string, x0: number, y0: number, x1: number, y1: number, radius = 0): string[] => [
  '-fill',
  colour,
  '-draw',
  radius ? `roundrectangle ${x0},${y0} ${x1},${y1} ${radius},${radius}` : `rectangle ${x0},${y0} ${x1},${y1}`
]

const normalized = (result: OcrResult): string[] => result.lines.map((line) => normalizeForMatch(line.text))

describe.runIf(ready)('TesseractOcr (real engine, offline)', () => {
  // A chat list 250 px wide: avatars, then names at 14–16 px whose starts are alike.
  const names = ['产品群', '产品群（旧）', '张伟', '张伟 (HR)', 'Design Team']
  const sizes = [14, 15, 16, 14, 15]
  const ROW = 48
  const list = (): Uint8Array =>
    render(
      'list',
      `250x${ROW * names.length}`,
      '#f7f7f7',
      names.flatMap((name, i) => [...rect('#cccccc', 10, i * ROW + 6, 46, i * ROW + 42), ...text(60, i * ROW + 30, sizes[i]!, '#111111', name)])
    )
  const header = (): Uint8Array => render('header', '700x60', '#ededed', [...text(24, 37, 18, '#111111', '产品群'), ...rect('#d6d6d6', 0, 59, 700, 59)])
  const bubble = (): Uint8Array =>
    render('bubble', '420x60', '#f5f5f5', [...rect('#95ec69', 10, 8, 410, 52, 4), ...text(22, 36, 15, '#111111', '今天下午三点开会，请准时参加 [DeskClaw]')])

  let ocr: TesseractOcr
  const cacheDir = join(dir, 'cache')
  beforeAll(() => {
    ocr = new TesseractOcr({ cacheDir })
  })
  afterAll(async () => {
    await ocr.close()
  })

  it('reads a chat list line by line, each name exactly, with boxes in the crop’s pixels', async () => {
    const result = await ocr.recognize(list())
    expect(normalized(result)).toEqual(['产品群', '产品群(旧)', '张伟', '张伟(hr)', 'designteam'])
    expect(findExactLines(result.lines.map((line) => line.text), '产品群')).toEqual([0])
    expect(findExactLines(result.lines.map((line) => line.text), '张伟')).toEqual([2])
    expect(findExactLines(result.lines.map((line) => line.text), '产品群（旧）')).toEqual([1])
    result.lines.forEach((line, i) => {
      // The text starts at x = 60 and sits in its 48-px row (the crop was read three times larger).
      expect(line.box.x).toBeGreaterThanOrEqual(57)
      expect(line.box.x).toBeLessThanOrEqual(63)
      expect(line.box.y).toBeGreaterThanOrEqual(i * ROW + 6)
      expect(line.box.y + line.box.height).toBeLessThanOrEqual(i * ROW + 42)
      expect(line.box.height).toBeGreaterThanOrEqual(8)
      expect(line.box.x + line.box.width).toBeLessThanOrEqual(250)
      expect(line.confidence).toBeGreaterThan(0.5)
      expect(line.confidence).toBeLessThanOrEqual(1)
    })
    expect(result.text).toBe(result.lines.map((line) => line.text).join('\n'))
    expect(result.durationMs).toBeGreaterThan(0)
  })

  it('reads a chat header', async () => {
    const result = await ocr.recognize(header())
    expect(normalized(result)).toEqual(['产品群'])
    expect(result.lines[0]!.box.x).toBeGreaterThanOrEqual(20)
    expect(result.lines[0]!.box.x).toBeLessThanOrEqual(28)
  })

  it('reads the name of a header apart from the buttons at its far end', async () => {
    const png = render('header-buttons', '700x60', '#ededed', [...text(24, 37, 16, '#111111', '产品群 (12)'), ...text(650, 37, 18, '#555555', '···')])
    const result = await ocr.recognize(png)
    expect(normalized(result)[0]).toBe('产品群(12)')
    expect(stripPatterns(result.lines[0]!.text, [/[(（〈]\s*\d+\s*[)）〉]/])).toSatisfy((name: string) => sameText(name, '产品群'))
    expect(result.lines[0]!.box.x + result.lines[0]!.box.width).toBeLessThan(200)
  })

  it('reads dark text on a green bubble', async () => {
    const result = await ocr.recognize(bubble())
    expect(normalized(result)).toEqual(['今天下午三点开会,请准时参加(deskclaw)'])
  })

  it('reads light text on a dark background', async () => {
    const png = render('dark', '250x96', '#1e1e1e', [...text(16, 30, 14, '#e6e6e6', '产品群（旧）'), ...text(16, 78, 14, '#e6e6e6', 'Design Team')])
    expect(normalized(await ocr.recognize(png))).toEqual(['产品群(旧)', 'designteam'])
  })

  it('reads a short Chinese name alone on its line (which the English model alone misreads), and keeps short English ones', async () => {
    // With both models, Tesseract read these as "5", "BZA" and "RAE"; the Chinese-only second reading fixes them.
    for (const name of ['王芳', '周杰', '家人群', 'Ops #2', 'QA']) {
      const png = render(`short-${name}`, '300x50', '#ffffff', text(10, 31, 14, '#111111', name))
      expect(normalized(await ocr.recognize(png)), name).toEqual([normalizeForMatch(name)])
    }
  })

  it('enlarges small text three times and leaves large text as it is', async () => {
    expect((await prepareForOcr(list())).scale).toBe(3)
    const large = render('large', '700x80', '#ffffff', text(16, 52, 28, '#111111', '今天下午三点开会'))
    expect((await prepareForOcr(large)).scale).toBe(1)
    expect(normalized(await ocr.recognize(large))).toEqual(['今天下午三点开会'])
  })

  it('reads calls made at the same time one after another, each with its own result', async () => {
    const [a, b, c] = await Promise.all([ocr.recognize(header()), ocr.recognize(bubble()), ocr.recognize(header())])
    expect(normalized(a)).toEqual(['产品群'])
    expect(normalized(b)).toEqual(['今天下午三点开会,请准时参加(deskclaw)'])
    expect(normalized(c)).toEqual(['产品群'])
  })

  it('answers an aborted call with an AbortError, before or during the reading, and goes on working', async () => {
    await expect(ocr.recognize(header(), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    const controller = new AbortController()
    const during = ocr.recognize(list(), { signal: controller.signal })
    setTimeout(() => controller.abort(), 5)
    await expect(during).rejects.toMatchObject({ name: 'AbortError' })
    const stopped = new AbortController()
    const withReason = ocr.recognize(list(), { signal: stopped.signal })
    stopped.abort(new Error('stopped by the user'))
    await expect(withReason).rejects.toThrow('stopped by the user')
    expect(normalized(await ocr.recognize(header()))).toEqual(['产品群'])
  })

  it('reads the language data from the installed packages, through a directory of its own (never a CDN)', () => {
    const langDir = join(cacheDir)
    const files = readdirSync(langDir).sort()
    expect(files).toEqual(['chi_sim.traineddata.gz', 'eng.traineddata.gz'])
    expect(realpathSync(join(langDir, 'chi_sim.traineddata.gz'))).toBe(realpathSync(installedLanguageData('chi_sim')!))
    expect(realpathSync(join(langDir, 'eng.traineddata.gz'))).toBe(realpathSync(installedLanguageData('eng')!))
    expect(installedLanguageData('eng')).toMatch(/@tesseract\.js-data[\\/]eng[\\/]4\.0\.0_best_int[\\/]eng\.traineddata\.gz$/)
  })

  it('starts again on the next call after close()', async () => {
    await ocr.close()
    expect(normalized(await ocr.recognize(header()))).toEqual(['产品群'])
  })
})

describe.runIf(ready)('TesseractOcr without the language data', () => {
  const header = (): Uint8Array => render('missing-header', '300x50', '#ffffff', text(10, 32, 16, '#111111', '产品群'))

  it('says in one line that OCR is unavailable and which packages are missing', async () => {
    const missing = join(dir, 'missing-data')
    const ocr = new TesseractOcr({ languageData: (language) => join(missing, `${language}.traineddata.gz`), cacheDir: join(dir, 'missing-cache') })
    const failure = await ocr.recognize(header()).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    expect(failure).toMatchObject({ name: 'OcrUnavailableError', message: MISSING_LANGUAGE_DATA })
    expect(MISSING_LANGUAGE_DATA).toBe(
      'OCR unavailable: the Chinese/English language data (@tesseract.js-data/chi_sim, @tesseract.js-data/eng) is not installed'
    )
    await ocr.close()
  })

  it('says the same when a package cannot be found at all', async () => {
    const ocr = new TesseractOcr({ languageData: (language) => (language === 'eng' ? installedLanguageData(language) : null), cacheDir: join(dir, 'missing-cache') })
    await expect(ocr.recognize(header())).rejects.toThrow(MISSING_LANGUAGE_DATA)
    await ocr.close()
  })

  it('tries again on the next call: once the data is there, it reads', async () => {
    const later = join(dir, 'later-data')
    const ocr = new TesseractOcr({ languageData: (language) => join(later, `${language}.traineddata.gz`), cacheDir: join(dir, 'later-cache') })
    await expect(ocr.recognize(header())).rejects.toThrow(MISSING_LANGUAGE_DATA)
    await expect(ocr.recognize(header())).rejects.toThrow(MISSING_LANGUAGE_DATA)
    mkdirSync(later, { recursive: true })
    for (const language of ['chi_sim', 'eng'] as const) symlinkSync(installedLanguageData(language)!, join(later, `${language}.traineddata.gz`))
    const result = await ocr.recognize(header())
    expect(normalized(result)).toEqual(['产品群'])
    await ocr.close()
  })
})
