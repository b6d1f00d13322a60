import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import type { ShellCommand } from '../../runtime/shell/types.ts';

beforeAll(async () => {
  await initShellParser();
});

function only(source: string): ShellCommand {
  const parsed = parseShell(source);
  expect(parsed.commands).toHaveLength(1);
  return parsed.commands[0] as ShellCommand;
}

function words(command: ShellCommand): string[] {
  return [command.name?.text ?? '', ...command.args.map((a) => a.text)];
}

describe('parseShell: quoting and escapes', () => {
  it.each([
    ["r''m -rf /", ['rm', '-rf', '/']],
    ['"rm" -rf /', ['rm', '-rf', '/']],
    ['\\rm -rf /', ['rm', '-rf', '/']],
    ["$'r\\x6d' -rf /", ['rm', '-rf', '/']],
    ['echo "a \\"b\\" \\$c"', ['echo', 'a "b" $c']],
    ["cat 'it''s'", ['cat', 'its']],
  ])('%s resolves to its words', (source, expected) => {
    const command = only(source);
    expect(words(command)).toEqual(expected);
    expect(command.args.every((a) => a.literal)).toBe(true);
  });

  it.each([
    'echo $x',
    'echo "$(date)"',
    'echo `date`',
    'echo *.ts',
    'echo file?',
    'echo [ab]',
    'echo {a,b}',
    'echo a{1..3}',
    'echo ${x:-y}',
  ])('%s has a non-literal argument', (source) => {
    expect(parseShell(source).commands[0]?.args.some((a) => !a.literal)).toBe(true);
  });

  it('a substitution of a literal echo knows its output but stays non-literal', () => {
    const [echoed, other] = parseShell('rm "$(echo /x)" $(date)').commands[0]?.args ?? [];
    expect(echoed?.literal).toBe(false);
    expect(echoed?.parts).toMatchObject([{ kind: 'dynamic', output: '/x' }]);
    expect(other?.parts).toMatchObject([{ kind: 'dynamic', output: null }]);
    // What each runs, for a reader that knows directories and variables (`$(pwd)`).
    expect(other?.parts[0]).toMatchObject({
      derived: { from: 'command', words: [{ text: 'date' }] },
    });
  });

  it('an escaped or quoted glob is literal', () => {
    expect(only('echo \'*\' \\? "[x]"').args.every((a) => a.literal)).toBe(true);
  });
});

describe('parseShell: finds every command', () => {
  it('lists, pipelines, subshells, groups and control flow', () => {
    const parsed = parseShell(
      'a && b || c; (d | e); { f; }; if g; then h; fi; for i in 1; do j; done; while k; do l; done; case x in y) m;; esac',
    );
    expect(parsed.commands.map((c) => c.binary)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'j',
      'k',
      'l',
      'm',
    ]);
  });

  it('substitutions record their parent and origin', () => {
    const parsed = parseShell('echo $(curl x) `id` <(ls)');
    expect(parsed.hasSubstitution).toBe(true);
    expect(parsed.commands.map((c) => [c.binary, c.origin, c.parent])).toEqual([
      ['echo', 'top', null],
      ['curl', 'substitution', 0],
      ['id', 'substitution', 0],
      ['ls', 'process-substitution', 0],
    ]);
  });

  it('pipeline stages share an id; background is marked', () => {
    const parsed = parseShell('curl x | sh & echo hi');
    const [curl, sh, echo] = parsed.commands;
    expect(curl?.pipeline).toEqual({ id: sh?.pipeline.id, stage: 0, length: 2 });
    expect(sh?.pipeline.stage).toBe(1);
    expect([curl?.background, sh?.background, echo?.background]).toEqual([true, true, false]);
  });

  it('a redirect on a middle stage keeps the pipeline whole, as bash runs it', () => {
    const stages = (source: string): [string | null, number, number, string[]][] =>
      parseShell(source).commands.map((c) => [
        c.binary,
        c.pipeline.id,
        c.pipeline.stage,
        c.redirects.map((r) => r.target?.text ?? ''),
      ]);
    expect(stages('a | b 2>&1 | c')).toEqual([
      ['a', 0, 0, []],
      ['b', 0, 1, ['1']],
      ['c', 0, 2, []],
    ]);
    expect(stages('a | b 2>/dev/null | c | d > f')).toEqual([
      ['a', 0, 0, []],
      ['b', 0, 1, ['/dev/null']],
      ['c', 0, 2, []],
      ['d', 0, 3, ['f']],
    ]);
    expect(parseShell('a | b 2>&1 | c').commands.map((c) => c.pipeline.length)).toEqual([3, 3, 3]);
  });

  it('records the child shells a command runs in', () => {
    const parsed = parseShell("a; (b; (c)); d | e; f & g; echo $(h); bash -c 'i'");
    const scopes = new Map(parsed.commands.map((c) => [c.binary, c.scope]));
    expect(scopes.get('a')).toEqual([]);
    expect(scopes.get('b')).toHaveLength(1);
    expect(scopes.get('c')).toHaveLength(2);
    expect(scopes.get('c')?.[0]).toBe(scopes.get('b')?.[0]);
    expect(scopes.get('d')).toHaveLength(1);
    expect(scopes.get('d')).not.toEqual(scopes.get('e'));
    expect(scopes.get('f')).toHaveLength(1);
    expect(scopes.get('g')).toEqual([]);
    expect(scopes.get('echo')).toEqual([]);
    expect(scopes.get('h')).toHaveLength(1);
    expect(scopes.get('i')).toHaveLength(1);
  });

  it('function bodies carry the function name', () => {
    const parsed = parseShell(':(){ :|:& };:');
    expect(parsed.functions.has(':')).toBe(true);
    expect(parsed.commands.filter((c) => c.fn === ':')).toHaveLength(2);
  });

  it('redirects: writes vs fd duplication and /dev/null', () => {
    const command = only('cmd 2>&1 >/dev/null 2>/dev/stderr > out.txt >> ~/.bashrc < in');
    expect(command.redirects.map((r) => [r.op, r.writes])).toEqual([
      ['>&', false],
      ['>', false],
      ['>', false],
      ['>', true],
      ['>>', true],
      ['<', false],
    ]);
  });

  it('group redirects apply to the commands inside', () => {
    const parsed = parseShell('{ a; b; } > /etc/x');
    expect(
      parsed.commands.every((c) =>
        c.redirects.some((r) => r.writes && r.target?.text === '/etc/x'),
      ),
    ).toBe(true);
  });

  it('a redirect after a list or pipeline belongs to its last command, as bash binds it', () => {
    const targets = (source: string): string[][] =>
      parseShell(source).commands.map((c) => c.redirects.map((r) => r.target?.text ?? ''));
    expect(targets('echo hi > a.txt && echo b > b.txt')).toEqual([['a.txt'], ['b.txt']]);
    expect(targets('echo a > x | tee y > z && ls > w')).toEqual([['x'], ['z'], ['w']]);
    expect(targets('{ echo a; echo b; } > both')).toEqual([['both'], ['both']]);
    const heredoc = parseShell('bash -c "ls" && cat > out <<EOF\nhi\nEOF');
    expect(heredoc.commands.map((c) => c.redirects.map((r) => r.target?.text ?? null))).toEqual([
      [],
      [],
      ['out', null],
    ]);
    expect(heredoc.commands[2]?.stdinText).toBe('hi\n');
  });

  it('a syntax error is reported, not thrown', () => {
    expect(parseShell('echo "unterminated').errors).toBe(true);
    expect(parseShell('ls -la').errors).toBe(false);
  });
});

describe('parseShell: unwrapping', () => {
  it.each([
    ['sudo rm -rf /x', ['sudo']],
    ['sudo -u bob -E rm -rf /x', ['sudo']],
    ['doas -u bob rm -rf /x', ['doas']],
    ['env -i A=1 B=2 rm -rf /x', ['env']],
    ['env -u HOME -- rm -rf /x', ['env']],
    ['nohup rm -rf /x', ['nohup']],
    ['nice -n 10 rm -rf /x', ['nice']],
    ['nice -5 rm -rf /x', ['nice']],
    ['timeout 5 rm -rf /x', ['timeout']],
    ['timeout -s KILL -k 2 5s rm -rf /x', ['timeout']],
    ['xargs -0 -n 1 rm -rf /x', ['xargs']],
    ['busybox rm -rf /x', ['busybox']],
    ['command rm -rf /x', ['command']],
    ['exec -a name rm -rf /x', ['exec']],
    ['stdbuf -oL -e 0 rm -rf /x', ['stdbuf']],
    ['ionice -c3 rm -rf /x', ['ionice']],
    ['setsid -f rm -rf /x', ['setsid']],
    ['chroot /mnt rm -rf /x', ['chroot']],
    ['time -p rm -rf /x', ['time']],
    ['sudo nice -n 5 timeout 9 /bin/rm -rf /x', ['sudo', 'nice', 'timeout']],
  ])('%s runs rm', (source, wrappers) => {
    const command = only(source);
    expect(command.binary).toBe('rm');
    expect(command.args.map((a) => a.text)).toEqual(['-rf', '/x']);
    expect(command.wrappers.map((w) => w.name)).toEqual(wrappers);
  });

  it.each(['command -v mkfs', 'sudo -l', 'ionice -p 1234', 'env', 'timeout 5'])(
    '%s runs no other command',
    (source) => {
      expect(only(source).wrappers).toEqual([]);
    },
  );
});

describe('parseShell: payloads', () => {
  it.each([
    ["bash -c 'rm -rf /x'", 1],
    ["sh -ec 'rm -rf /x'", 1],
    ["bash -o pipefail -c 'rm -rf /x'", 1],
    ['zsh -c "bash -c \'rm -rf /x\'"', 2],
    ['eval rm -rf /x', 1],
    ["su -c 'rm -rf /x'", 1],
    ['env -S \'rm -rf "/x"\'', 1],
    ['sudo dash -c \'eval "rm -rf /x"\'', 2],
    ['bash <<EOF\nrm -rf /x\nEOF', 1],
    ["sh <<< 'rm -rf /x'", 1],
    ['cat <<EOF | sh\nrm -rf /x\nEOF', 1],
    ["echo 'rm -rf /x' | sh", 1],
    ['printf "rm -rf /x\\n" | bash -s', 1],
    ["echo -n 'ls; rm -rf /x' | sudo sh", 1],
  ])('%s re-parses the payload', (source, depth) => {
    const rm = parseShell(source).commands.find((c) => c.binary === 'rm');
    expect(rm?.origin).toBe('payload');
    expect(rm?.depth).toBe(depth);
    expect(rm?.args.map((a) => a.text)).toEqual(['-rf', '/x']);
  });

  it('env -S splits a plain string into the command it runs', () => {
    for (const source of ["env -S 'rm -rf /x'", "curl -s x | env -S'sh -s'"]) {
      const run = parseShell(source).commands.at(-1);
      expect(run?.origin, source).toBe('top');
      expect(
        run?.wrappers.map((w) => w.name),
        source,
      ).toEqual(['env']);
    }
    expect(parseShell("env -S 'rm -rf /x'").commands[0]?.args.map((a) => a.text)).toEqual([
      '-rf',
      '/x',
    ]);
  });

  it.each([
    ['python3 -c "import os; os.system(\'rm -rf /x\')"'],
    ['python3 -c \'import subprocess; subprocess.run("rm -rf /x", shell=True)\''],
    ['perl -e \'system("rm -rf /x")\''],
    ["node -e \"require('child_process').execSync('rm -rf /x')\""],
    ['ruby -e \'system(%q(ls)); system("rm -rf /x")\''],
  ])('%s re-parses the shell string inside the one-liner', (source) => {
    const rm = parseShell(source).commands.find((c) => c.binary === 'rm');
    expect(rm?.origin).toBe('payload');
    expect(rm?.args.map((a) => a.text)).toEqual(['-rf', '/x']);
  });

  it('a script file or non-literal code is not searched', () => {
    expect(parseShell('python3 run.py \'os.system("rm -rf /x")\'').commands).toHaveLength(1);
    expect(parseShell('python3 -c "$CODE"').commands).toHaveLength(1);
  });

  it('nesting past the bound is an error, not a stack overflow', () => {
    let source = 'rm -rf /x';
    for (let i = 0; i < 8; i += 1) source = `bash -c ${JSON.stringify(source)}`;
    expect(parseShell(source).errors).toBe(true);
  });

  it('bash script.sh is not a payload', () => {
    expect(parseShell('bash script.sh').commands).toHaveLength(1);
  });
});

describe('parseShell: variables', () => {
  it('records literal values from assignments, declarations and for lists', () => {
    const parsed = parseShell(
      'x=\'/etc/passwd\'; export Y=/etc; for f in /a "/b c"; do cat "$f"; done; z=$(date)',
    );
    expect(parsed.variables.get('x')).toEqual(['/etc/passwd']);
    expect(parsed.variables.get('Y')).toEqual(['/etc']);
    expect(parsed.variables.get('f')).toEqual(['/a', '/b c']);
    expect(parsed.variables.has('z')).toBe(false);
    const cat = parsed.commands.find((c) => c.binary === 'cat');
    expect(cat?.args[0]?.parts).toEqual([{ kind: 'var', name: 'f' }]);
  });

  it('init is idempotent', async () => {
    await expect(initShellParser()).resolves.toBeUndefined();
  });
});

describe('parseShell: text the tree leaves out', () => {
  it('marks a parse that drops a word (the `-` of `python3 - <<EOF`) as an error', () => {
    expect(parseShell("python3 - <<'EOF'\nprint(1)\nEOF").errors).toBe(true);
  });

  it('keeps blanks, line continuations and comments clean', () => {
    for (const source of [
      'cat - < x',
      'ls -la \\\n  /tmp',
      'echo hi # note',
      "cat <<'EOF'\nx\nEOF",
    ]) {
      expect(parseShell(source).errors, source).toBe(false);
    }
  });
});

describe('parseShell: reads the text as bash reads it', () => {
  it.each([
    ['cat /etc/sha\\\ndow', ['cat', '/etc/shadow']],
    ['c\\\nat ~/.ss\\\nh/id_rsa', ['cat', '~/.ssh/id_rsa']],
    ['echo "a\\\nb"', ['echo', 'ab']],
    ["echo 'a\\\nb'", ['echo', 'a\\\nb']],
    ['echo a\\\n#b', ['echo', 'a#b']],
    ['echo a\\\\\\\nb', ['echo', 'a\\b']],
  ])('a line continuation is joined where bash joins it: %j', (source, expected) => {
    const parsed = parseShell(source);
    expect(parsed.errors).toBe(false);
    expect(words(only(source))).toEqual(expected);
  });

  it('an escaped backslash before a newline ends the word and the command', () => {
    expect(parseShell('echo a\\\\\nrm b').commands.map(words)).toEqual([
      ['echo', 'a\\'],
      ['rm', 'b'],
    ]);
  });

  it('a continuation inside a comment does not continue the comment', () => {
    expect(parseShell('echo a # note \\\nrm b').commands.map(words)).toEqual([
      ['echo', 'a'],
      ['rm', 'b'],
    ]);
  });

  it('words after a redirection target are arguments of the command', () => {
    const command = only('cat 2>/dev/null /etc/shadow x');
    expect(words(command)).toEqual(['cat', '/etc/shadow', 'x']);
    expect(command.redirects.map((r) => r.target?.text)).toEqual(['/dev/null']);
  });

  it('a redirection and words after a here-document opener belong to the command', () => {
    const command = only('cat <<EOF > out.txt x\nhi\nEOF');
    expect(words(command)).toEqual(['cat', 'x']);
    expect(command.redirects.map((r) => [r.op, r.target?.text ?? null, r.writes])).toEqual([
      ['<<', null, false],
      ['>', 'out.txt', true],
    ]);
  });

  it.each(['echo a\rb', 'echo a\vb', 'echo a\fb', 'echo a\u00a0b', 'echo a\0b', 'ls\r\n'])(
    'a blank bash keeps inside a word is not understood: %j',
    (source) => {
      expect(parseShell(source).errors).toBe(true);
    },
  );

  it('a carriage return inside single quotes is text', () => {
    const parsed = parseShell("printf 'a\rb'");
    expect(parsed.errors).toBe(false);
    expect(words(only("printf 'a\rb'"))).toEqual(['printf', 'a\rb']);
  });

  it('a carriage return inside double quotes, which the grammar drops, is not understood', () => {
    expect(parseShell('printf "c\rd"').errors).toBe(true);
  });

  it('words after a group redirection are a syntax error, as in bash', () => {
    expect(parseShell('{ echo a; } > f x').errors).toBe(true);
  });
});

describe('parseShell: words the grammar splits or reads otherwise', () => {
  it('pieces with no blank between them are one word (the grammar splits `"a"\\b`)', () => {
    expect(words(only('cat "/etc/sha"\\dow x"*"\\$ ${HOME}\\>'))).toEqual([
      'cat',
      '/etc/shadow',
      'x*$',
      '${HOME}>',
    ]);
  });

  it('a double-quoted string keeps the text the grammar leaves out of its content nodes', () => {
    expect(words(only('echo "$" " $x" "a\nb"'))).toEqual(['echo', '$', ' ${x}', 'a\nb']);
  });

  it('a bare `$` before quotes or a name is an expansion bash makes, never text', () => {
    for (const source of ['echo a$"b"', 'echo $"b"c', "echo 'b'$A$1"]) {
      const word = only(source).args[0];
      expect(word?.literal, source).toBe(false);
      expect(
        word?.parts.some((p) => p.kind === 'dynamic'),
        source,
      ).toBe(true);
    }
  });

  it("$'…' is decoded as bash decodes it: a NUL ends it, \\c? is DEL, bytes past ASCII are not known", () => {
    expect(words(only("echo $'a\\0b'c $'\\c?'"))).toEqual(['echo', 'ac', '\x7f']);
    expect(only("echo $'\\xff'").args[0]?.literal).toBe(false);
  });

  it("a `$'…'` the grammar ends at the wrong quote is not understood", () => {
    expect(parseShell("echo $'\\\\''ab'").errors).toBe(true);
  });

  it('a leading tilde bash keeps as it is (quoted, escaped, followed by quotes) is not literal', () => {
    for (const source of ["cat '~'/x", 'cat \\~/x', 'cat ~"/x"', 'cat ~\\/x', 'cat ~""'])
      expect(only(source).args[0]?.literal, source).toBe(false);
    for (const source of ['cat ~', 'cat ~/x', 'cat ~/"x"'])
      expect(only(source).args[0]?.literal, source).toBe(true);
  });

  it('a tilde after `name=` or `:` in an argument is the home directory, as bash expands it', () => {
    const [of, path, option] = only('dd of=~/.bashrc PATH=a:~/bin --file=~/x').args;
    expect(of?.parts).toEqual([
      { kind: 'text', text: 'of=' },
      { kind: 'var', name: 'HOME' },
      { kind: 'text', text: '/.bashrc' },
    ]);
    expect(path?.text).toBe('PATH=a:${HOME}/bin');
    expect(option).toMatchObject({ text: '--file=~/x', literal: true });
  });

  it('an unquoted newline the grammar puts inside a word is not understood', () => {
    expect(parseShell('echo a\n\\rm -rf /').errors).toBe(true);
  });
});

describe('parseShell: a && chain', () => {
  it('gives a redirection in the middle of the chain to its own element, as bash does', () => {
    expect(parseShell('cd app && echo x >> f && ls').andChain).toEqual([
      'cd app',
      'echo x >> f',
      'ls',
    ]);
    expect(parseShell('a && b > f 2>&1 && c > g').andChain).toEqual(['a', 'b > f 2>&1', 'c > g']);
    expect(parseShell('a && b > f || c').andChain).toBeNull();
    // bash: the failed `false` runs nothing after it, so `true > f` never makes f.
    const dir = mkdtempSync(join(process.env.HOME ?? '/var/tmp', 'chain-'));
    execFileSync('bash', ['-c', 'false && true > f && ls; true'], { cwd: dir, stdio: 'ignore' });
    expect(existsSync(join(dir, 'f'))).toBe(false);
  });

  it('gives a pipe in the middle of the chain to its own element, as bash does', () => {
    expect(parseShell('cd app && npm test 2>&1 | tail -5 && git status').andChain).toEqual([
      'cd app',
      'npm test 2>&1 | tail -5',
      'git status',
    ]);
    expect(parseShell('a && b | c && d | e').andChain).toEqual(['a', 'b | c', 'd | e']);
    expect(parseShell('a && b 2>&1 | c || d').andChain).toBeNull();
    // bash: the failed `false` runs nothing after it, not even the pipeline's last stage.
    const dir = mkdtempSync(join(process.env.HOME ?? '/var/tmp', 'chain-'));
    execFileSync('bash', ['-c', 'false && true 2>&1 | touch f && ls; true'], {
      cwd: dir,
      stdio: 'ignore',
    });
    expect(existsSync(join(dir, 'f'))).toBe(false);
  });
});
