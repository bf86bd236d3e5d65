import nx from '@nx/eslint-plugin';
import globals from 'globals';

/**
 * One lint configuration for the whole workspace. Module boundaries:
 * - scope:shared libs (contracts, api-client) import only other shared libs; contracts imports nothing.
 * - scope:backend (services, server-kit, testing) never imports frontend code.
 * - scope:frontend (web, admin-web, ui) never imports server code.
 * - type:model (matching-model, the scoring model in plain TypeScript) imports nothing, like contracts.
 */
export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/node_modules', '**/coverage', '**/.nx', '**/vite.config.*.timestamp*', 'tmp'],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.jsx', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:model', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:backend', onlyDependOnLibsWithTags: ['scope:shared', 'scope:backend'] },
            { sourceTag: 'scope:frontend', onlyDependOnLibsWithTags: ['scope:shared', 'scope:frontend'] },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:e2e'] },
            { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:shared', 'scope:backend', 'scope:tools'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Jest configs load the shared preset by relative path; that is configuration, not a module import.
    files: ['**/jest.config.cjs', '**/jest.config.js', '**/jest.*.config.cjs'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // Benches reuse plain-script helpers of other tools by relative path: the platform launcher
    // (tools/scripts/lib, not a project) and the seeder's tastes and photos (tools/seed/lib). Tools
    // to tools only: no file under tools/ imports an app (a bench starts a built service as a process).
    files: [
      'tools/bench/gateway/run.mjs',
      'tools/bench/web/run.mjs',
      'tools/bench/web/accounts.mjs',
      'tools/bench/matching-quality/bench.ts',
      'tools/bench/matching-quality/simulation.ts',
    ],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // The e2e runners (processes, compose) reuse the platform launcher of tools/scripts (plain scripts, not a project).
    files: ['apps/e2e/run.mjs', 'apps/e2e/compose-platform.mjs'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
