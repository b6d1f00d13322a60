// README's "When Custode asks" examples table, replayed through the real pipeline: each command
// must get the decision the README promises (no card = allow, card = ask, refused = deny).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const decisions: Readonly<Record<string, string>> = {
  'no card': 'allow',
  card: 'ask',
  refused: 'deny',
};

interface Example {
  readonly command: string;
  readonly cwd: string | undefined;
  readonly decision: string;
}

/** The rows of the section's `| example | decision |` table. */
function examples(): Example[] {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## When Custode asks')).split('\n');
  const start = section.findIndex((line) => /^\|\s*example\s*\|/.test(line));
  const end = section.findIndex((line, i) => i > start && !line.startsWith('|'));
  return section.slice(start + 2, end).map((row) => {
    const cells = row.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const example = /^`(.+?)`(?: in `([^`]+)`)?$/.exec(cells[1] ?? '');
    return {
      command: (example?.[1] ?? '').replace(/\\\|/g, '|'),
      cwd: example?.[2],
      decision: cells[2] ?? '',
    };
  });
}

let pipeline: Pipeline;

beforeAll(async () => {
  mkdirSync(join(home, 'app', 'src'), { recursive: true });
  writeFileSync(join(home, 'app', 'src', 'a.js'), '// TODO: one\n');
  writeFileSync(join(home, 'app', '.gitignore'), 'node_modules\n');
  writeFileSync(join(home, 'app', 'src', 'b.js'), '// not committed\n');
  execFileSync('git', ['init', '-q', join(home, 'app')]);
  execFileSync('git', ['-C', join(home, 'app'), 'add', 'src/a.js', '.gitignore']);
  execFileSync('git', [
    '-C',
    join(home, 'app'),
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@t',
    'commit',
    '-qm',
    'a',
  ]);
  mkdirSync(join(home, 'notes'), { recursive: true });
  writeFileSync(join(home, 'notes', 'todo.md'), '- milk\n');
  mkdirSync(join(home, 'Downloads'), { recursive: true });
  writeFileSync(join(home, 'Downloads', 'a.jpg'), 'jpg');
  writeFileSync(join(home, 'Downloads', 'b.jpg'), 'jpg');
  mkdirSync(join(home, 'Downloads', 'odd'), { recursive: true });
  writeFileSync(join(home, 'Downloads', 'odd', '-rf'), 'a name that reads as an option');
  mkdirSync(join(home, 'Pictures'), { recursive: true });
  tar.c({ file: join(home, 'Downloads', 'notes.tgz'), cwd: home, gzip: true, sync: true }, [
    'notes',
  ]);
  tar.c({ file: join(home, 'Downloads', 'app-git.tgz'), cwd: join(home, 'app'), sync: true }, [
    '.git/HEAD',
  ]);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(
    join(home, '.ssh', 'id_ed25519.pub'),
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILocbLAV3pPmYBcX4DPfn8CcSq7D497wl6VQW2sLx4vM me@laptop\n',
  );
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

describe("README's examples", () => {
  it('has examples of every decision', () => {
    expect(new Set(examples().map((e) => e.decision))).toEqual(new Set(Object.keys(decisions)));
  });

  it.each(examples())('$command: $decision', async ({ command, cwd, decision }) => {
    const args = cwd === undefined ? { command } : { command, cwd };
    const outcome = await pipeline.evaluate(call('shell_exec', args, 'help me'));
    expect(outcome.decision, outcome.reason).toBe(decisions[decision]);
  });
});
