// README's "When Custode asks" table is the tier list a person reads: it must be the one the
// code runs (runtime/pipeline/tiers/index.ts), row for row and in the same order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TIERS } from '../../runtime/pipeline/tiers/index.ts';

function tierTable(): { reason: string; writes: string }[] {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## When Custode asks'));
  const rows = section.split('\n').filter((line) => /^\|\s*`[^`]+`/.test(line));
  return rows.map((row) => {
    const cells = row.split('|').map((cell) => cell.trim());
    return { reason: (cells[1] ?? '').replace(/`/g, ''), writes: cells[3] ?? '' };
  });
}

describe('the README tier table', () => {
  it('lists the tiers the pipeline asks, in order, with what each may write', () => {
    expect(tierTable()).toEqual(TIERS.map(({ reason, writes }) => ({ reason, writes })));
  });
});
