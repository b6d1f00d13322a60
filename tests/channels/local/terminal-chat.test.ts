// `custode chat` driven as a person would: a real process, piped stdin, a temp HOME.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCustode } from './run-custode.ts';

describe('custode chat', () => {
  it('answers a question, asks inline for a write (bare Enter asks again), writes after "o"', async () => {
    const { code, stdout, stderr, home } = await runCustode(
      ['chat'],
      'what can you do?\n/write ~/x.txt hi\n\no\n/read ~/x.txt\n',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('model offline/offline');
    expect(stdout).toContain('No model is connected');
    expect(stdout).toContain('Approval needed:');
    // The bare Enter did not approve: the question came twice.
    expect(stdout.split('[o]nce / [a]lways / [n]o? ').length - 1).toBe(2);
    expect(stdout).toContain('Please answer o, a or n.');
    expect(stdout).toContain('Allowed once by local:tester.');
    expect(stdout).toContain('fs_write ~/x.txt -> allow');
    expect(readFileSync(join(home, 'x.txt'), 'utf8')).toBe('hi');
    expect(stdout).toContain('fs_read ~/x.txt -> allow');
    expect(stdout.trimEnd().endsWith('hi')).toBe(true);
  });

  it('declines an open card at end of input and exits cleanly', async () => {
    const { code, stdout, home } = await runCustode(['chat'], '/write ~/never.txt no\n');
    expect(code).toBe(0);
    expect(stdout).toContain('Denied by local:tester.');
    expect(() => readFileSync(join(home, 'never.txt'))).toThrow();
  });
});
