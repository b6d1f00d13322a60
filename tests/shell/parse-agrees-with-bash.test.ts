// The parser's words against bash's own: each line is run by bash (globbing off) printing one
// NUL-terminated argument per word, and parsed by parseShell; both must give the same words.
// (`$"…"` pieces are left out: the parser reads them as run-time expansions on purpose.)
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';

beforeAll(async () => {
  await initShellParser();
});

function bashWords(words: string): string[] {
  const out = execFileSync('bash', ['-c', `set -f; printf '%s\\0' ${words}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

function parsedWords(words: string): string[] {
  const [command] = parseShell(`printf '%s\\0' ${words}`).commands;
  return (command?.args ?? []).slice(1).map((word) => word.text);
}

describe('quoting: the parser reads each word as bash does', () => {
  it.each([
    'rm -rf /',
    "$'r\\x6d' $'\\101'",
    'r\'\'m "r"m r\\m',
    'a$ b',
    '-$ x',
    '\'it\'\'s\' "a \\"b\\""',
  ])('%s', (words) => {
    expect(parsedWords(words)).toEqual(bashWords(words));
  });
});
