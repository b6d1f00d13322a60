// The public corpora (../shared/eval) for the corpus tests. Outside CI a checkout without them
// skips those tests; in CI (CI set, as every CI service does) they are expected, and a missing
// corpus is a failure, never a silent skip.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultEvalDir } from '../../runtime/cli/eval.ts';

export const corporaDir = defaultEvalDir();
const FILES = ['redcode-bash.jsonl', 'benign-shell.jsonl'];

/** Both corpus files exist. */
export const corporaPresent = FILES.every((file) => existsSync(join(corporaDir, file)));

/** True when the environment says this is CI (CI=true, CI=1 ...; not "false" or "0"). */
export function corporaExpected(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/** In CI, a test that fails when the corpora are missing (the corpus tests would skip). */
export function requireCorporaInCi(): void {
  describe.runIf(corporaExpected())('the public corpora in CI', () => {
    it('are present', () => {
      expect(
        FILES.filter((file) => !existsSync(join(corporaDir, file))),
        `CI expects the corpora in ${corporaDir}`,
      ).toEqual([]);
    });
  });
}
