import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // The domain core must run in plain Node: only main/electron may import Electron.
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'The core is Electron-free: only main/electron/ may import electron.' }] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'scripts/**', 'bin/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
