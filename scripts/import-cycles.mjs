// `node scripts/import-cycles.mjs [root]`: no circle between the files of src/ (docs/architecture.md,
// "Which way the arrows run"). Reads every .ts/.tsx under root (default src/), collects every import —
// `import type` and `export … from` included, and `import()` — resolves relative specifiers and the
// tsconfig path aliases, and reports each strongly connected component with one concrete loop.
// Exit 1 when there is any; `npm run lint` runs it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const EXTENSIONS = ['.ts', '.tsx', '.d.ts']

/** Every .ts/.tsx file under `dir`, absolute paths, sorted. */
export function sourceFiles(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(path))
    } else if (/\.tsx?$/.test(entry.name)) out.push(path)
  }
  return out.sort()
}

/** Every module specifier a file names: imports, re-exports, `import x = require()`, `import()` and `import('x').T`. */
export function specifiersOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found = []
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression
      if (ts.isStringLiteralLike(expr)) found.push(expr.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteralLike(node.argument.literal)) {
      found.push(node.argument.literal.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The `paths` aliases of every tsconfig*.json in `projectDir`, as [prefix, [target dirs]] (only `x/*` → `dir/*` forms). */
export function pathAliases(projectDir) {
  const aliases = []
  if (!existsSync(projectDir)) return aliases
  for (const name of readdirSync(projectDir).filter((n) => /^tsconfig.*\.json$/.test(n))) {
    const { config } = ts.readConfigFile(join(projectDir, name), ts.sys.readFile)
    const options = config?.compilerOptions ?? {}
    const base = resolve(projectDir, options.baseUrl ?? '.')
    for (const [pattern, targets] of Object.entries(options.paths ?? {})) {
      const prefix = pattern.replace(/\*$/, '')
      aliases.push([prefix, targets.map((t) => resolve(base, t.replace(/\*$/, '')))])
    }
  }
  return aliases
}

/** The file a specifier names, or null when it is a package (or nothing we read). */
function resolveSpecifier(fromFile, specifier, aliases, known) {
  let bases = []
  if (specifier.startsWith('.')) bases = [resolve(dirname(fromFile), specifier)]
  else {
    for (const [prefix, targets] of aliases) {
      if (specifier.startsWith(prefix)) bases.push(...targets.map((t) => join(t, specifier.slice(prefix.length))))
    }
  }
  for (const base of bases) {
    const stripped = base.replace(/\.(m?js|jsx)$/, '')
    const candidates = [base, ...EXTENSIONS.map((e) => stripped + e), ...EXTENSIONS.map((e) => join(base, 'index' + e))]
    for (const candidate of candidates) if (known.has(candidate)) return candidate
  }
  return null
}

/** The import graph of every source file under `root`: file → set of files it imports. */
export function importGraph(root, projectDir = root) {
  const files = sourceFiles(root)
  const known = new Set(files)
  const aliases = pathAliases(projectDir)
  const graph = new Map()
  for (const file of files) {
    const targets = new Set()
    for (const specifier of specifiersOf(file, readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, specifier, aliases, known)
      if (target) targets.add(target)
    }
    graph.set(file, targets)
  }
  return graph
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on deep chains). */
export function stronglyConnected(graph) {
  const index = new Map()
  const low = new Map()
  const onStack = new Set()
  const stack = []
  const components = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work = [{ node: start, edges: [...graph.get(start)], i: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      if (frame.i < frame.edges.length) {
        const to = frame.edges[frame.i++]
        if (!index.has(to)) {
          index.set(to, next)
          low.set(to, next++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, edges: [...graph.get(to)], i: 0 })
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)))
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)))
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = []
        let member
        do {
          member = stack.pop()
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        const selfLoop = component.length === 1 && graph.get(member).has(member)
        if (component.length > 1 || selfLoop) components.push(component.sort())
      }
    }
  }
  return components
}

/** One concrete loop through a component: the shortest path from its first file back to itself (BFS inside it). */
export function loopThrough(graph, component) {
  const inside = new Set(component)
  const start = component[0]
  const previous = new Map()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()
    for (const to of graph.get(node)) {
      if (!inside.has(to)) continue
      if (to === start) {
        const path = [start]
        for (let at = node; at !== start; at = previous.get(at)) path.splice(1, 0, at)
        return [...path, start]
      }
      if (!previous.has(to)) {
        previous.set(to, node)
        queue.push(to)
      }
    }
  }
  return [start, start]
}

/** Checks `root`; returns { files, edges, cycles: [{ files, loop }] } with paths relative to `display`. */
export function checkImportCycles(root, { projectDir = root, display = process.cwd() } = {}) {
  const graph = importGraph(root, projectDir)
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0)
  const rel = (file) => relative(display, file).split(sep).join('/')
  const cycles = stronglyConnected(graph).map((component) => ({ files: component.map(rel), loop: loopThrough(graph, component).map(rel) }))
  return { files: graph.size, edges, cycles }
}

/** The nearest folder at or above `dir` with a tsconfig*.json: its aliases are the ones the files under `dir` use. */
function projectOf(dir) {
  for (let at = dir; ; at = dirname(at)) {
    if (readdirSync(at).some((name) => /^tsconfig.*\.json$/.test(name))) return at
    if (dirname(at) === at) return dir
  }
}

function main() {
  const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..')
  const root = resolve(process.argv[2] ?? join(projectDir, 'src'))
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    process.stderr.write(`import-cycles: ${root} is not a folder.\n`)
    process.exit(2)
  }
  const { files, edges, cycles } = checkImportCycles(root, { projectDir: projectOf(root) })
  if (cycles.length === 0) {
    process.stdout.write(`import-cycles: ${files} files, ${edges} imports, 0 cycles.\n`)
    return
  }
  process.stderr.write(`import-cycles: ${cycles.length} cycle(s) among ${files} files — an import runs back up (docs/architecture.md):\n`)
  for (const [n, cycle] of cycles.entries()) {
    process.stderr.write(`\ncycle ${n + 1}: ${cycle.files.length} files\n`)
    for (const file of cycle.files) process.stderr.write(`  ${file}\n`)
    process.stderr.write(`  loop: ${cycle.loop.join('\n     → ')}\n`)
  }
  process.exit(1)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
