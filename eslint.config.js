// Lint: strict TypeScript rules, and side effects confined to the modules that own them.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const sideEffectImports = {
  paths: [
    {
      name: 'node:fs',
      message: 'File access belongs in executors/ (FsOps) or the log/state modules.',
    },
    {
      name: 'node:fs/promises',
      message: 'File access belongs in executors/ (FsOps) or the log/state modules.',
    },
    { name: 'node:child_process', message: 'Processes run only through executors/ (ShellOps).' },
    { name: 'execa', message: 'Processes run only through executors/ (ShellOps).' },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'coverage/**',
      // The CLI built from the TypeScript (runtime/build/build.mjs).
      'runtime/built/**',
      // A StrykerJS run's sandbox copy and reports (npm run mutate).
      '.stryker-tmp*/**',
      'reports/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
          message: 'process.exit only in the CLI entry.',
        },
      ],
    },
  },
  {
    files: ['runtime/**/*.ts', 'channels/**/*.ts', 'constitution/**/*.ts'],
    ignores: [
      'runtime/log/**',
      'runtime/state-store.ts',
      'runtime/state-lock.ts',
      'runtime/config.ts',
      'runtime/inbox.ts',
      'runtime/cli/**',
      'runtime/bench/**',
      'runtime/approvals/store.ts',
      'runtime/approvals/rule-store.ts',
      'runtime/outbox/outbox-store.ts',
      'runtime/planner/history.ts',
      'runtime/shell/parse.ts',
      'runtime/vaglio/telos-file.ts',
    ],
    rules: { 'no-restricted-imports': ['error', sideEffectImports] },
  },
  {
    files: ['runtime/cli/main.ts', 'runtime/cli/custode.cjs'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The bin and its quick loader are CommonJS (an ES module entry starts the ES module loader).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
