import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { ELECTRON_PATHS, ELECTRON_PATTERNS, wallConfigs } from './eslint-walls.mjs'

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'build/**', 'docs/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly', require: 'readonly', Buffer: 'readonly' }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Electron is reachable only through the thin shell and the preload (DESIGN §1).
      'no-restricted-imports': ['error', { paths: ELECTRON_PATHS, patterns: ELECTRON_PATTERNS }]
    }
  },
  // The walls between rooms (eslint-walls.mjs): a later no-restricted-imports replaces the one
  // above for its files, so each of these carries the electron restriction too.
  ...wallConfigs(),
  {
    files: ['src/main/electron/**', 'src/preload/**', 'scripts/**', 'electron.vite.config.ts'],
    rules: { 'no-restricted-imports': 'off' }
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' }
  }
)
