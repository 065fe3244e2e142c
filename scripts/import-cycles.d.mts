// Types of scripts/import-cycles.mjs for the tests that import it (test/unit/lint/import-cycles.test.ts).
export interface ImportCycle {
  /** The files of one strongly connected component, relative to `display`, sorted. */
  files: string[]
  /** One concrete loop through them: the first file, the files it passes, the first file again. */
  loop: string[]
}
export interface ImportCycleReport {
  files: number
  edges: number
  cycles: ImportCycle[]
}
export function sourceFiles(dir: string): string[]
export function specifiersOf(fileName: string, text: string): string[]
export function pathAliases(projectDir: string): Array<[string, string[]]>
export function importGraph(root: string, projectDir?: string): Map<string, Set<string>>
export function stronglyConnected(graph: Map<string, Set<string>>): string[][]
export function loopThrough(graph: Map<string, Set<string>>, component: string[]): string[]
export function checkImportCycles(root: string, options?: { projectDir?: string; display?: string }): ImportCycleReport
