/** Labels the file tools share in their approval previews. */
export const PATH_LABELS = {
  en: { path: 'Path' },
  'zh-CN': { path: '路径' }
} as const
