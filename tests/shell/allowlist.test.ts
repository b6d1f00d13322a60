import { beforeAll, describe, expect, it } from 'vitest';
import { allowlistViolation } from '../../runtime/shell/allowlist.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';

beforeAll(async () => {
  await initShellParser();
});

const allowlist: Record<string, '*' | string[]> = {
  git: ['status', 'log'],
  ls: '*',
  grep: '*',
  echo: '*',
};

describe('allowlistViolation', () => {
  it.each(['git status', 'git log --oneline', 'ls -la | grep x', 'ls && echo ok', 'x=1; ls'])(
    '%s is allowed',
    (source) => {
      expect(allowlistViolation(parseShell(source), allowlist)).toBeNull();
    },
  );

  it.each([
    ['ls | rm -rf x', 'command', 'rm'],
    ['ls; curl x', 'command', 'curl'],
    ['echo $(curl x)', 'command', 'curl'],
    ["echo ok && bash -c 'ls'", 'command', 'bash'],
    ['sudo ls', 'command', 'sudo'],
    ['git push', 'subcommand', 'git'],
    ['git', 'subcommand', 'git'],
    ['$CMD status', 'command', 'not literal'],
    ['__proto__ x', 'command', '__proto__'],
    ['constructor x', 'command', 'constructor'],
  ])('%s is a %s violation naming %s', (source, kind, name) => {
    const violation = allowlistViolation(parseShell(source), allowlist);
    expect(violation?.kind).toBe(kind);
    expect(violation?.reason).toContain(name);
  });

  it('checks the commands inside a payload too', () => {
    expect(
      allowlistViolation(parseShell("echo ok; eval 'ls; rm -rf x'"), { ...allowlist, eval: '*' })
        ?.reason,
    ).toContain('rm');
  });

  it('an unparsable line is a violation when an allowlist is set', () => {
    expect(allowlistViolation(parseShell('ls "unterminated'), allowlist)?.kind).toBe('command');
  });
});
