/**
 * Reading the screen offline (docs/desktop.md, "Verification: OCR"): OCR of a crop of a
 * screenshot, and comparing what it read with the text that should be there (a chat's name in a
 * header or a search result, a message just sent).
 */
export type { OcrBox, OcrEngine, OcrLine, OcrResult } from './ocr-engine'
export { TesseractOcr, type TesseractOcrOptions } from './tesseract-ocr'
export {
  MISSING_LANGUAGE_DATA,
  OCR_LANGUAGES,
  OcrUnavailableError,
  installedLanguageData,
  type LanguageDataResolver,
  type OcrLanguage
} from './language-data'
export { findExactLines, normalizeForMatch, sameText, similarity, stripPatterns } from './text-match'
