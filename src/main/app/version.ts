declare const __APP_VERSION__: string | undefined

/** The package version, injected at build time (electron.vite.config.ts); 'dev' when run from source. */
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev'
