// A final `|| true` / `|| :` changes only the exit status: the tiers judge the line without it,
// and nothing else is ever cut (a quoted or escaped `||`, a no-op with words or a redirect, one
// inside a group, or a `||` whose left side is not the whole line before it).
import { beforeAll, describe, expect, it } from 'vitest';
import { dropTrailingTrue } from '../../runtime/pipeline/tiers/trailing-true.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';

beforeAll(() => initShellParser());

const judged = (line: string): string => dropTrailingTrue(parseShell(line)).source;

describe('a final || true', () => {
  it('is dropped before the line is judged', () => {
    expect(judged('cd ~/app && npm test || true')).toBe('cd ~/app && npm test');
    expect(judged('cd ~/app && (ruff check . || flake8 .) || :')).toBe(
      'cd ~/app && (ruff check . || flake8 .)',
    );
    expect(judged('ls 2>/dev/null||true ')).toBe('ls 2>/dev/null');
    // A redirect that closes a descriptor names no file.
    expect(judged('ls >&- 2>&1 || true')).toBe('ls >&- 2>&1');
  });

  it('is kept when it is not a bare no-op ending the line', () => {
    for (const line of [
      'echo "a || true"',
      'ls || true > ~/.bashrc',
      'ls || true x',
      'ls || X=1 true',
      '(ls || true)',
      'ls || rm x',
      'ls # || true',
    ])
      expect(judged(line), line).toBe(line);
  });

  it('is kept when cutting the text would change what else the line runs', () => {
    for (const line of [
      // The `|| true` is inside a comment: the line does not end with that operator.
      'true # || true',
      'ls; true # || true',
      // An escaped blank belongs to the word before `||`: the cut would change that word.
      'ls; echo a\\ || true',
      'ls > a\\ || true',
      // A line the parser cannot read stays unreadable (a heredoc, then `||` on a line of its own).
      'true <<E || true\nx\nE\n|| true',
    ])
      expect(judged(line), line).toBe(line);
  });

  it('never hands the tiers a line the parser cannot read', () => {
    // `\` + newline joins the lines for bash; cutting `|| true` would leave a dangling `\`.
    const line = 'ls \\\n|| true';
    expect(dropTrailingTrue(parseShell(line)).errors).toBe(false);
  });
});
