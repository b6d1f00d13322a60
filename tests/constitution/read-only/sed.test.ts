import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isSedFilterScript, SED_FILTER } from '../../../constitution/read-only/sed.ts';

const FILTER_ONLY = [
  '1,40p',
  '$p',
  '/TODO/p',
  '/a\\/b/p',
  '\\,usr/bin,p',
  '/^[[:digit:]]+$/p',
  '/[a-z]/Ip',
  '0,/end/p',
  '1~2p',
  '/start/,+3p',
  '/x/,~4p',
  '1!p',
  '2p;4p',
  '1p\n$p',
  ' 3 , 5 ! p ; ',
  '1d',
  '/^$/d;/^#/d',
  's/a/b/',
  's/.*\\.//',
  's/[^a-z0-9]\\+/-/g',
  's|^/home/[a-z]+|~|g; /^$/d',
  's#a\\#b#c#2',
  's/x/\\/y/gI',
  '/TODO/s/^/- /p',
  '1!s/a/&&/gM',
  's,[0-9],N,g\n$d',
];

const NOT_FILTER = [
  '',
  ';',
  '1w out.txt',
  '1W out.txt',
  '/x/w /tmp/leak',
  '1e id',
  'e id',
  '1r /etc/shadow',
  '1R /etc/shadow',
  's/a/b/w out.txt',
  's/x/id/e',
  '1pw x',
  '1p w x',
  '1,40p;w out',
  '/a/p\n1w out',
  '{p}',
  '#n',
  '/[/]w x/p',
  '/[\\]/w x/p',
  '/unclosed\\/p',
  '/a\nw x/p',
  '1,p',
  '1=',
  's/a/b/e',
  's/a/b/w out',
  's/a/b/gw out',
  's/a/b/ w out',
  's/a/b/;w out',
  's/a/b',
  's/a/b\\',
  's/a/b\\\nc/',
  's/a/b\nc/',
  's\\a\\b\\',
  's a b ',
  's[a[b[',
  'sxaxbx',
  's/[/]/x/',
  'y/ab/cd/',
  '1,3{p}',
];

describe('sed filter scripts', () => {
  it.each(FILTER_ONLY)('%j only filters', (script) => {
    expect(isSedFilterScript(script)).toBe(true);
  });

  it.each(NOT_FILTER)('%j is refused', (script) => {
    expect(isSedFilterScript(script)).toBe(false);
  });

  // GNU sed --sandbox rejects e, r and w commands: a script we call print-only must pass it, so
  // our reading of where each regex ends agrees with sed's own.
  it('GNU sed in sandbox mode runs every script we call print-only', async () => {
    const input = join(process.env.HOME ?? '', 'sed-input.txt');
    writeFileSync(input, 'a/b\nTODO x\nusr/bin\n123\nend\n');
    for (const script of FILTER_ONLY) {
      const result = await execa('sed', ['--sandbox', '-n', '-e', script, input], {
        reject: false,
      });
      expect({ script, exitCode: result.exitCode }).toEqual({ script, exitCode: 0 });
    }
    for (const script of ['1w out.txt', 's/x/id/e', '1r /etc/hostname', 's/a/b/w out']) {
      const result = await execa('sed', ['--sandbox', '-n', '-e', script, input], {
        reject: false,
      });
      expect(result.exitCode).not.toBe(0);
    }
  });

  it('takes the script from -e or the first operand and checks the rest as paths', () => {
    const paths = SED_FILTER.paths;
    expect(paths).toBeDefined();
    expect(paths?.(['-n', '1,5p', 'a.txt', 'b.txt'])).toEqual(['a.txt', 'b.txt']);
    expect(paths?.(['-ne', '1p', '-e', '$p', 'a.txt'])).toEqual(['a.txt']);
    expect(paths?.(['--quiet', '--expression=/x/p', 'a.txt'])).toEqual(['a.txt']);
    expect(paths?.(['1p', '-n', '--', '-file'])).toEqual(['-file']);
    expect(paths?.(['-n', '-E', '-s', '/a|b/p', 'a.txt'])).toEqual(['a.txt']);
  });

  it('takes a script without -n: sed prints every line anyway', () => {
    expect(SED_FILTER.paths?.(['s/a/b/g', 'a.txt'])).toEqual(['a.txt']);
    expect(SED_FILTER.paths?.(['-E', '-e', 's/(a)/\\1/', 'a.txt', 'b.txt'])).toEqual([
      'a.txt',
      'b.txt',
    ]);
  });

  it.each([
    ['-n'],
    ['-n', '-e'],
    ['-i', '-n', '1p', 'a.txt'],
    ['-n', '--in-place', '1p', 'a.txt'],
    ['-n', '--in-pl', '1p', 'a.txt'],
    ['-ni', '1p', 'a.txt'],
    ['-n', '-f', 'script.sed', 'a.txt'],
    ['-n', '--file=script.sed', 'a.txt'],
    ['-n', '-l', '5', '1p', 'a.txt'],
    ['-n', '-e', '1p', '-e', '1w x', 'a.txt'],
    ['-n', '--expression', '1e id', 'a.txt'],
  ])('refuses sed %j', (...args) => {
    expect(SED_FILTER.paths?.(args)).toBeNull();
  });
});
