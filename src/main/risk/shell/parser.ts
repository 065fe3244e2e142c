import { createRequire } from 'node:module'
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter'

export type { Node as SyntaxNode, Tree as SyntaxTree }

let loading: Promise<Parser> | null = null

/**
 * tree-sitter-bash through web-tree-sitter (WASM): no native module to rebuild per Electron ABI,
 * and the same parser opencode and VS Code use. Loaded once per process; parsing is synchronous.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(__filename)
    await Parser.init()
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'))
    const parser = new Parser()
    parser.setLanguage(language)
    return parser
  })()
  return loading
}
