// The guard computes `${x<operator>}` for a known x the way bash does: each case is checked
// against a real bash (skipped without one), so a wipe spelled through an operator is judged on
// the path bash would delete.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applyOperator } from '../../runtime/vaglio/parameter-operators.ts';
import { hasProgram } from '../helpers/tools.ts';

const VALUES = ['/home/ada', '/home/ada/', '/Users/Ada/work', 'a.tar.gz', ''];
const OPERATORS = [
  '%/',
  '%%/',
  '%/*',
  '%%/*',
  '#/',
  '##*/',
  '#*/',
  '%.*',
  '%%.*',
  '#',
  '##[a-z]',
  '/a/b',
  '//a/b',
  '/#a/x',
  '/%/',
  '//[ae]/',
  ':0',
  ':1',
  ':0:5',
  ': -3',
  ':2:-1',
  ': -99',
  ':99',
  '^^',
  '^',
  ',,',
  ',',
  '^^[ad]',
  '@U',
  '@L',
  '@u',
  '@Q',
];

function bashSays(value: string, operator: string): string {
  const script = `x=${JSON.stringify(value)}; printf '%s' "\${x${operator}}"`;
  return execFileSync('bash', ['-c', script], { encoding: 'utf8' });
}

describe.skipIf(!hasProgram('bash'))('parameter operators agree with bash (needs bash)', () => {
  it('pattern removal, replacement, substrings and case give what bash prints', () => {
    for (const value of VALUES) {
      for (const operator of OPERATORS) {
        const ours = applyOperator(value, operator);
        expect(ours, operator).not.toBeNull();
        expect(ours, `\${x${operator}} with x=${value}`).toBe(bashSays(value, operator));
      }
    }
  });

  it('the length of a value', () => {
    for (const value of VALUES) expect(applyOperator(value, 'length')).toBe(String(value.length));
  });

  it('leaves unread what it does not follow: extended globs, `&` in a replacement, arithmetic', () => {
    for (const operator of ['%@(x|y)', '/a/&&', ':n', ':1+1', '@P', '@A'])
      expect(applyOperator('/home/ada', operator), operator).toBeNull();
  });
});
