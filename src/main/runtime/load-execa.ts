/**
 * execa, bundled into the build (ESM-only), loads with the first command, not with the app: a
 * `deskclaw` command that runs none starts without it (docs/benchmarks.md, "CLI start-up").
 */
export const loadExeca = (): Promise<typeof import('execa')> => import('execa')
