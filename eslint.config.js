import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_ELECTRON = { name: 'electron', message: 'The core is Electron-free: only main/electron/ may import electron.' };
/** the domain modules, below the façade (main/core) */
const DOMAIN = ['domain', 'config', 'parse', 'model', 'store', 'sync', 'edit', 'timeline', 'problems', 'assets', 'export', 'install', 'visibility'];
/** the shells and the shared app layer, above it */
const SHELLS = ['cli', 'mcp', 'web', 'app'];
const SHELL_REACH = {
  regex: `^(\\.\\./)+(${DOMAIN.filter((d) => d !== 'domain').join('|')})(/|$)`,
  message: 'Shells import only the core\'s index (main/core/index.ts), main/domain and shared/: add what you need to the core.',
};
const CORE_INSIDE = {
  regex: '^(\\.\\./)+core/(?!index\\.js$)',
  message: 'Import the core through its index (main/core/index.ts).',
};
const DOMAIN_UP = {
  regex: `^(\\.\\./)+(core|${SHELLS.join('|')}|electron)(/|$)`,
  message: 'Domain modules never import the façade (main/core) or a shell: move the shared piece down into main/domain.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'bench/results*.json', 'test-results/**', 'playwright-report/**', 'resources/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // Type-aware rules on the TypeScript sources (each file checked with its process's tsconfig, found
    // through tsconfig.json's references): a promise is awaited, returned, caught or marked `void`
    // (fire-and-forget on purpose), and never handed where a plain callback is expected.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The domain core must run in plain Node: only main/electron may import Electron.
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }],
    },
  },
  {
    // Shells (and the app layer the web and Electron shells share) are thin adapters: of main/ they
    // import only the core's index (plus main/domain and shared/). Tests may reach further.
    files: SHELLS.map((d) => `main/${d}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [SHELL_REACH, CORE_INSIDE] }],
    },
  },
  {
    files: ['main/electron/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SHELL_REACH, CORE_INSIDE] }],
    },
  },
  {
    // Domain modules sit below the façade: never an import of main/core or of a shell (their tests
    // may open a whole core to check the module in place).
    files: DOMAIN.map((d) => `main/${d}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [DOMAIN_UP] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'scripts/**', 'bin/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
