/** Runtimes that execute tool commands (DESIGN §5). */
export type { ExecRequest, ExecResult, Runtime } from './types'
export { NativeRuntime } from './native'
export { scrubSecrets } from './scrub-env'
