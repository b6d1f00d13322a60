// What a real bash makes of shell lines: the argv of every simple command it runs, for many lines
// in one bash process (each line in its own subshell, so nothing one line sets reaches the next).
// Every command in the lines must be `pr`, a function that writes its argv to fd 3.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fixed environment every line runs in: the variables the generated lines expand. */
export const BASH_ENV = {
  HOME: '/home/tester',
  A: 'alpha',
  B: 'b/c',
  // No program runs: every command is the \`pr\` function or not found.
  PATH: '/nonexistent',
  LC_ALL: 'C.UTF-8',
} as const;

// A marker before each case; then per command: its word count, its name and its arguments. A
// command that is not \`pr\` is not found (no PATH) and recorded too, so nothing hides.
const SCRIPT = `
pr() { printf '%s\\0' "$(($# + 1))" pr "$@" >&3; }
command_not_found_handle() { printf '%s\\0' "$#" "$@" >&3; return 0; }
while IFS= read -r -d '' line; do
  printf 'case\\0' >&3
  ( eval "$line" ) </dev/null >/dev/null 2>&1
done <cases 3>argv
`;

/** A usable bash, or null (with the reason) so the caller can skip. */
export function findBash(): { path: string } | { skip: string } {
  const probe = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' });
  const path = probe.stdout?.trim() ?? '';
  if (probe.error !== undefined || !path.startsWith('/'))
    return { skip: 'bash is not installed here: the differential test needs a real bash' };
  return { path };
}

/**
 * The argv of each `pr` call bash runs for each line, in order; a line bash refuses to parse
 * gives what ran before the error. Lines must not hold a NUL (no program argument can).
 */
export function bashArgv(bash: string, lines: readonly string[]): string[][][] {
  const dir = realpathSync(mkdtempSync('/var/tmp/custode-bash-argv-'));
  try {
    writeFileSync(join(dir, 'cases'), lines.map((line) => `${line}\0`).join(''));
    writeFileSync(join(dir, 'run.sh'), SCRIPT);
    const ran = spawnSync(bash, ['--norc', '--noprofile', 'run.sh'], {
      cwd: dir,
      env: { ...BASH_ENV, PWD: dir, OLDPWD: dir },
      timeout: 120_000,
    });
    if (ran.error !== undefined) throw ran.error;
    const fields = readFileSync(join(dir, 'argv'), 'utf8').split('\0');
    return readRecords(fields, lines.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readRecords(fields: readonly string[], expected: number): string[][][] {
  const cases: string[][][] = [];
  let i = 0;
  while (i < fields.length - 1) {
    if (fields[i] === 'case') {
      cases.push([]);
      i += 1;
      continue;
    }
    const count = Number(fields[i]);
    cases[cases.length - 1]?.push(fields.slice(i + 1, i + 1 + count));
    i += 1 + count;
  }
  if (cases.length !== expected)
    throw new Error(`bash reported ${cases.length} of ${expected} lines`);
  return cases;
}
