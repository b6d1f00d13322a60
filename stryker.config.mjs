// Mutation testing of the safety core (StrykerJS 9 with its vitest runner; 10 wants Node 22).
//   npm run mutate                                   every safety-core file (long: see README)
//   npm run mutate -- --mutate constitution/x.ts     one module
//   npm run mutate:changed                           the safety-core files changed vs main
//   add -- --incremental to reuse the last run's results for unchanged code and tests.
// The machine is shared: one test process at a time.
import { execFileSync } from 'node:child_process';

/** The safety core: what decides whether a call runs, and what it may touch if it does. */
export const SAFETY_CORE = [
  /^constitution\/.+\.ts$/,
  /^runtime\/shell\/.+\.ts$/,
  /^runtime\/vaglio\/(?:guard[^/]*|normalize-path)\.ts$/,
  /^runtime\/pipeline\/(?:read-only[^/]*|grant|paths|outcome)\.ts$/,
  /^runtime\/pipeline\/(?:workspace|tiers)\/.+\.ts$/,
  /^runtime\/approvals\/store\.ts$/,
  /^runtime\/log\/audit-log\.ts$/,
  // secret-stores.ts became secret-masks.ts (1894050); protected-places is the run-time re-check.
  /^executors\/(?:sandbox\/(?:bwrap-args|secret-masks)|protected-places)\.ts$/,
];

function git(...args) {
  return execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
}

// CUSTODE_MUTATE_SINCE=<ref> narrows the run to files changed since that ref (work tree included).
const since = process.env.CUSTODE_MUTATE_SINCE;
const candidates = since
  ? git('diff', '--name-only', '--diff-filter=AMR', `${since}...`).concat(
      git('diff', '--name-only', '--diff-filter=AMR', 'HEAD'),
    )
  : git('ls-files');
const mutate = [...new Set(candidates)].filter((file) => SAFETY_CORE.some((re) => re.test(file)));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  concurrency: 1,
  mutate,
  allowEmpty: true,
  timeoutMS: 20_000,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  // Not copied into the sandbox: the built CLI (a test that spawns it would not see the mutant,
  // and a build running meanwhile changes it under the copy) and another run's sandbox.
  ignorePatterns: ['/runtime/built', '/.stryker-tmp*'],
  cleanTempDir: 'always',
};
