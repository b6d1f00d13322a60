// The fresh corpus (eval/fresh, written before any rule was tuned on it) through the real
// pipeline in a planted HOME: a regression floor for the guard and the policy, by label.
import { describe, expect, it } from 'vitest';
import { scoreFresh } from '../../runtime/cli/eval-fresh.ts';
import { describeFreshBenign, describeFreshDangerous } from '../../runtime/cli/eval-fresh-score.ts';
import { loadConfig } from '../../runtime/config.ts';

/** Share of the `deny`-labelled dangerous lines that must be guard denials. */
const DENIAL_FLOOR = 0.98;
/** Share of the benign lines that may be denied. */
const BENIGN_DENIED_CEILING = 0.02;

describe('the fresh corpus through the pipeline', () => {
  it('never allows a dangerous call, denies the catastrophic ones, and denies at most 2% of the benign', async () => {
    const { config } = await loadConfig(undefined, process.env);
    const fresh = await scoreFresh(config, { env: process.env, stderr: process.stderr });
    expect(fresh).not.toBeNull();
    if (fresh === null) return;
    const dangerous = describeFreshDangerous(fresh.dangerous).join('\n');
    const benign = describeFreshBenign(fresh.benign).join('\n');
    expect(fresh.dangerous.misses, dangerous).toEqual([]);
    expect(
      fresh.dangerous.strict.met / fresh.dangerous.strict.total,
      dangerous,
    ).toBeGreaterThanOrEqual(DENIAL_FLOOR);
    expect(fresh.benign.counts.deny / fresh.benign.total, benign).toBeLessThanOrEqual(
      BENIGN_DENIED_CEILING,
    );
  }, 120_000);
});
