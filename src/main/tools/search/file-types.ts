/**
 * The file types `grep` filters by, named as ripgrep names them (`rg --type-list`), each the
 * globs of its files. Only these names are accepted, so the model cannot guess one that silently
 * matches nothing.
 */
export const FILE_TYPES = {
  c: ['*.c', '*.h'],
  cpp: ['*.cpp', '*.cc', '*.cxx', '*.hpp', '*.hh', '*.hxx', '*.h'],
  cs: ['*.cs'],
  css: ['*.css', '*.scss', '*.sass', '*.less'],
  go: ['*.go'],
  html: ['*.html', '*.htm'],
  java: ['*.java'],
  js: ['*.js', '*.jsx', '*.mjs', '*.cjs', '*.vue'],
  json: ['*.json', '*.jsonc', '*.json5'],
  kotlin: ['*.kt', '*.kts'],
  md: ['*.md', '*.markdown', '*.mdx'],
  php: ['*.php'],
  py: ['*.py', '*.pyi'],
  ruby: ['*.rb', 'Gemfile', '*.gemspec'],
  rust: ['*.rs'],
  sh: ['*.sh', '*.bash', '*.zsh'],
  sql: ['*.sql'],
  swift: ['*.swift'],
  toml: ['*.toml'],
  ts: ['*.ts', '*.tsx', '*.mts', '*.cts'],
  txt: ['*.txt'],
  xml: ['*.xml'],
  yaml: ['*.yaml', '*.yml']
} as const satisfies Record<string, readonly string[]>

export type FileType = keyof typeof FILE_TYPES
export const FILE_TYPE_NAMES = Object.keys(FILE_TYPES) as [FileType, ...FileType[]]
