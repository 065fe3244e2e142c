/**
 * When a line is read again with the Chinese model alone. With both models loaded, Tesseract keeps
 * whichever model's reading of a word scores better, and for a short Chinese name on a line of its
 * own the English model's guess sometimes wins (王芳 read as "5", 周杰 as "BZA", 家人群 as "RAE").
 * The Chinese model alone reads those, but misreads English punctuation (`Ops #2` as `Ops扫`), so
 * its reading replaces the first only when it is Chinese without Latin letters.
 */
import type { OcrLine } from './ocr-engine'
import { normalizeForMatch } from './text-match'

/** English guesses for a Chinese name are a few characters; longer Latin lines are English. */
const SHORT_LINE = 8
/** Lower than this (crop pixels) it is no text but a rule or a button's dots, read as "Te" or "--". */
const MIN_TEXT_HEIGHT = 6
const HAN = /\p{Script=Han}/u
const LATIN_LETTER = /\p{Script=Latin}/u

/** A short line of text in which the mixed reading found no Chinese at all. */
export function worthReadingInChinese(line: Pick<OcrLine, 'text' | 'box'>): boolean {
  const chars = Array.from(normalizeForMatch(line.text))
  return chars.length > 0 && chars.length <= SHORT_LINE && !HAN.test(line.text) && line.box.height >= MIN_TEXT_HEIGHT
}

/** The Chinese model's reading of such a line is taken when it is Chinese and has no Latin letters. */
export function chineseReadingWins(reading: string): boolean {
  return HAN.test(reading) && !LATIN_LETTER.test(reading)
}
