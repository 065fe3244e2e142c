/**
 * Tesseract's language data, from the installed @tesseract.js-data packages and never from the
 * network. tesseract.js reads every language from one directory (`langPath`), and the packages
 * keep each in its own, so the files are linked (or, where links are not allowed, copied) into one
 * directory of ours.
 */
import { randomBytes } from 'node:crypto'
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir, userInfo } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * Chinese first: with English first, short Chinese names were read as Latin letters (产品群 as
 * "FEE"); the Chinese model reads Latin text too.
 */
export const OCR_LANGUAGES = ['chi_sim', 'eng'] as const
export type OcrLanguage = (typeof OCR_LANGUAGES)[number]

/** The path of a language's `<code>.traineddata.gz` (LSTM-only), or null when it is not installed. */
export type LanguageDataResolver = (language: OcrLanguage) => string | null

export class OcrUnavailableError extends Error {
  override name = 'OcrUnavailableError'
}

export const MISSING_LANGUAGE_DATA =
  'OCR unavailable: the Chinese/English language data (@tesseract.js-data/chi_sim, @tesseract.js-data/eng) is not installed'

/** The LSTM-only ("best_int") data the packages ship beside the larger legacy-engine data. */
export const installedLanguageData: LanguageDataResolver = (language) => {
  try {
    const manifest = createRequire(__filename).resolve(`@tesseract.js-data/${language}/package.json`)
    return outsideArchive(join(dirname(manifest), '4.0.0_best_int', `${language}.traineddata.gz`))
  } catch {
    return null
  }
}

/**
 * A directory holding `<code>.traineddata.gz` for every language, for tesseract.js's `langPath`.
 * Throws OcrUnavailableError when a language's data is missing. The files are replaced on every
 * call, so whatever an earlier run (or anyone else) left in the directory is never read.
 */
export function prepareLanguageDirectory(resolve: LanguageDataResolver, cacheDir: string = defaultCacheDir()): string {
  const sources = OCR_LANGUAGES.map((language) => ({ language, path: resolve(language) }))
  if (sources.some(({ path }) => path === null || !isNonEmptyFile(path))) throw new OcrUnavailableError(MISSING_LANGUAGE_DATA)
  const dir = ownPrivateDirectory(cacheDir)
  for (const { language, path } of sources) placeFile(path!, join(dir, `${language}.traineddata.gz`))
  return dir
}

function defaultCacheDir(): string {
  const user = process.getuid?.() ?? userInfo().username
  return join(tmpdir(), `deskclaw-ocr-${user}`)
}

/**
 * The cache directory when it is ours alone; in a shared temp folder someone else could have made
 * it first (and left data there that would change what OCR reads), so then a fresh one is used.
 */
function ownPrivateDirectory(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const stat = lstatSync(dir)
  const uid = process.getuid?.()
  const ours = stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0))
  return ours ? dir : mkdtempSync(join(tmpdir(), 'deskclaw-ocr-'))
}

/** A link (a copy where links are refused, as on Windows without developer mode), swapped in by rename. */
function placeFile(source: string, target: string): void {
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    try {
      symlinkSync(source, temporary)
    } catch {
      copyFileSync(source, temporary)
    }
    renameSync(temporary, target)
  } finally {
    rmSync(temporary, { force: true })
  }
}

function isNonEmptyFile(path: string): boolean {
  try {
    const stat = statSync(path)
    return stat.isFile() && stat.size > 0
  } catch {
    return false
  }
}

/**
 * In the packaged app the data is unpacked beside app.asar (electron-builder.config.cjs, asarUnpack):
 * a link into the archive would point at nothing the OCR worker can open.
 */
function outsideArchive(path: string): string {
  return path.replace(/\.asar([\\/])/, '.asar.unpacked$1')
}
