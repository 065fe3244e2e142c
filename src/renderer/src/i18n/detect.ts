import type { Language } from '../../../shared/bridge'

/** 'zh', 'zh-CN', 'zh-Hans-SG'… → zh-CN; 'en-*' → en; the first tag that is either wins. */
export function detectLanguage(preferred: readonly string[] | undefined): Language {
  for (const tag of preferred ?? []) {
    if (/^zh\b/i.test(tag)) return 'zh-CN'
    if (/^en\b/i.test(tag)) return 'en'
  }
  return 'en'
}

export function browserLanguage(): Language {
  if (typeof navigator === 'undefined') return 'en'
  return detectLanguage(navigator.languages?.length ? navigator.languages : [navigator.language])
}
