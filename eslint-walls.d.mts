// Types of eslint-walls.mjs for the test that walks its table (test/unit/lint/eslint-walls.test.ts).
export interface Wall {
  /** A folder of src/main/. */
  room: string
  /** The folders of src/main/ it may not import, not even a type. */
  forbidden: string[]
}
export const CAPABILITY_ROOMS: string[]
export const WALLS: Wall[]
export const MAX_DEPTH: number
export const ELECTRON_PATHS: Array<{ name: string; message: string }>
export const ELECTRON_PATTERNS: Array<{ group: string[]; message: string }>
export function wallRegex(forbidden: string, depth: number): string
export function wallOptions(wall: Wall, depth: number): { paths: typeof ELECTRON_PATHS; patterns: Array<{ group?: string[]; regex?: string; message: string }> }
export function wallConfigs(): Array<{ files: string[]; rules: Record<string, unknown> }>
