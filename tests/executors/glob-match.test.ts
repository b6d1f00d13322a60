import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../executors/glob-match.ts';
import { InvalidArguments } from '../../runtime/errors.ts';

describe('globToRegExp', () => {
  const cases: [string, string[], string[]][] = [
    ['*.ts', ['a.ts', '.x.ts'], ['a/b.ts', 'a.tsx']],
    ['**/*.ts', ['a.ts', 'a/b.ts', 'a/b/c.ts'], ['a.js']],
    ['src/**', ['src/a', 'src/a/b'], ['lib/a']],
    ['?.md', ['a.md'], ['ab.md', '/.md']],
    ['[ab].txt', ['a.txt', 'b.txt'], ['c.txt']],
    ['[!ab].txt', ['c.txt'], ['a.txt']],
    ['*.{js,ts}', ['x.js', 'x.ts'], ['x.md']],
    ['a.b(c)+', ['a.b(c)+'], ['aXb(c)+', 'a.bc']],
  ];
  it.each(cases)('%s', (pattern, yes, no) => {
    const regex = globToRegExp(pattern);
    for (const path of yes) expect(regex.test(path), path).toBe(true);
    for (const path of no) expect(regex.test(path), path).toBe(false);
  });

  it('refuses unbalanced brackets and braces', () => {
    expect(() => globToRegExp('[ab')).toThrow(InvalidArguments);
    expect(() => globToRegExp('{a,b')).toThrow(InvalidArguments);
  });
});
