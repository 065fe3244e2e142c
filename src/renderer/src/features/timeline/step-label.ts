/** A step's label, without React or stores (unit-tested under plain Node: test/unit/renderer/tool-progress.test.ts). */
import type { MessageKey } from '../../i18n/en'
import { dictionaries, type Translator } from '../../i18n/translator'

/** A step's label in the UI language: `toolStep.<code>`, or the code itself for a step this UI does not know. */
export function stepLabel(t: Translator, step: string): string {
  const key = `toolStep.${step}`
  return Object.hasOwn(dictionaries.en, key) ? t(key as MessageKey) : step
}
