import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { AWK_PRINT, isAwkPrintProgram } from '../../../constitution/read-only/awk.ts';

const PRINT_ONLY = [
  '{print $1}',
  '{ print $1, $3 }',
  '{print}',
  '{ print $NF; }',
  '/ERROR/ { print NR, $0 }',
  'NR > 1 { print $2 }',
  'NF==3{ print "row", $1 }',
  'NR>1 {s+=$2} END {print s}',
  '/ERROR/ {n++} END {print n}',
  '{ total += $3; rows++ } END { print "total", total, rows }',
];

const REFUSED = [
  '',
  '{print $1 > "out.txt"}',
  '{print $1 >> "out.txt"}',
  '{print | "sh"}',
  '{print $1 | "mail x"}',
  'BEGIN { system("id") }',
  '{ system($0) }',
  '{ "date" | getline d; print d }',
  '{ getline line < "/etc/shadow"; print line }',
  '{print $(system("id"))}',
  '{printf "%s", $1}',
  '{print ENVIRON["HOME"]}',
  '{print "a\\" > "/tmp/x"}',
  '/a\\/ {print}',
  '{print $1} {print $2}',
  'END {print NR}',
  '{s+=$2} END {print ENVIRON["HOME"]}',
  '{s+=$2} END {print PROCINFO}',
  '{s+=$2} END {print s > "out.txt"}',
  '{s+=$2} END {system("id")}',
  '{s=$2} END {print s}',
  '{s+=$(system("id"))} END {print s}',
  '{a[$1]++} END {for (k in a) print k}',
];

describe('awk print-only programs', () => {
  it.each(PRINT_ONLY)('%j is print-only', (program) => {
    expect(isAwkPrintProgram(program)).toBe(true);
  });

  it.each(REFUSED)('%j is refused', (program) => {
    expect(isAwkPrintProgram(program)).toBe(false);
  });

  it('the system awk runs every print-only program and writes nothing', async () => {
    const dir = join(process.env.HOME ?? '', 'awk-run');
    mkdirSync(dir);
    const input = join(dir, 'data.txt');
    writeFileSync(input, 'a b c\nERROR x y\n');
    for (const program of PRINT_ONLY) {
      const result = await execa('awk', [program, input], { cwd: dir, reject: false });
      expect({ program, exitCode: result.exitCode }).toEqual({ program, exitCode: 0 });
    }
    expect(readdirSync(dir)).toEqual(['data.txt']);
  });

  it('takes -F and the program before the files; assignments and other options are refused', () => {
    const paths = AWK_PRINT.paths;
    expect(paths?.(['-F,', '{print $1}', 'a.csv', 'b.csv'])).toEqual(['a.csv', 'b.csv']);
    expect(paths?.(['-F', ':', '{print $1}', 'passwd.txt'])).toEqual(['passwd.txt']);
    expect(paths?.(['{print $1}', 'x=1', 'a.csv'])).toBeNull();
    expect(paths?.(['-v', 'x=1', '{print $1}', 'a.csv'])).toBeNull();
    expect(paths?.(['-f', 'prog.awk', 'a.csv'])).toBeNull();
    expect(paths?.(['-W', 'exec', '{print}', 'a.csv'])).toBeNull();
    expect(paths?.(['-F'])).toBeNull();
  });
});
