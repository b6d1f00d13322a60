// The tests StrykerJS runs against each mutant of the safety core (stryker.config.mjs): the
// unit and decision tests of the constitution, parser, guard, no-card tiers, approval store,
// audit log and sandbox arguments. Not the channels, planner or CLI subprocess tests: they
// reach the same code more slowly, and a subprocess would not see the active mutant.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const SAFETY_CORE_TESTS = [
  'tests/constitution/**/*.test.ts',
  'tests/shell/**/*.test.ts',
  'tests/vaglio/guard*.test.ts',
  'tests/pipeline/**/*.test.ts',
  'tests/approvals/store.test.ts',
  'tests/log/audit-log.test.ts',
  'tests/executors/sandbox/bwrap-args.test.ts',
  'tests/executors/tree-protection.test.ts',
  'tests/executors/boundary.test.ts',
  'tests/executors/fs-search.test.ts',
  'tests/executors/sandbox/secret-*.test.ts',
];
// CUSTODE_MUTATE_TESTS=glob,glob narrows a one-module run to that module's own tests (faster
// on a shared machine; a narrower set can only report more survivors, never fewer).
const chosen = process.env.CUSTODE_MUTATE_TESTS?.split(',').filter((glob) => glob !== '');

// Spread, not mergeConfig: mergeConfig would append to the base include list.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: chosen && chosen.length > 0 ? chosen : SAFETY_CORE_TESTS,
    // No build before the run: esbuild fails on Stryker's instrumented sources (the dry run then
    // crashes), and a test that spawns the built bin would not see the active mutant anyway.
    globalSetup: [],
    // The corpora sit outside the repository, where Stryker's sandbox copy cannot see them.
    exclude: ['tests/**/*corpora*.test.ts'],
  },
});
