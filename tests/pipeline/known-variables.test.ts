// `echo $PATH`, `ls $HOME/notes`: a variable the command env passes is judged as its value, so
// it runs without a card where its value would, and is checked as the path it is. A variable
// outside that env (an API key), one the line may change, or a value that would split or
// expand keeps the line asking.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const env = {
  ...process.env,
  PATH: `${home}/bin-vars:/usr/local/bin:/usr/bin:/bin`,
  OPENAI_API_KEY: 'sk-test-known-variables',
};
let pipeline: Pipeline;

beforeAll(async () => {
  await mkdir(join(home, 'notes-vars'), { recursive: true });
  await writeFile(join(home, 'notes-vars', 'todo.md'), '- milk\n');
  await mkdir(join(home, 'dotfiles-vars'), { recursive: true });
  await writeFile(join(home, 'dotfiles-vars', '.netrc'), 'machine x login a password hunter2\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } }, env);
});
afterAll(() => pipeline.close());

function decide(command: string): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command }, 'where is python?'));
}

describe('a variable of the command env as a word', () => {
  it('runs where its value would, and the run sees that value', async () => {
    const outcome = await decide('echo $PATH | tr ":" "\\n"');
    expect(outcome).toMatchObject({ decision: 'allow', reason: 'read-only: echo, tr' });
    const result = await pipeline.invoke(outcome, new AbortController().signal);
    expect(result).toMatchObject({ ok: true, result: { exit_code: 0 } });
    const stdout = result.ok ? String((result.result as { stdout: string }).stdout) : '';
    expect(stdout.split('\n')[0]).toBe(`${home}/bin-vars`);
    expect(await decide('ls $HOME/notes-vars')).toMatchObject({ decision: 'allow' });
    expect(await decide('cat "${HOME}/notes-vars/todo.md"')).toMatchObject({ decision: 'allow' });
  });

  it('is checked as the path it is', async () => {
    for (const command of [
      'cat $HOME/dotfiles-vars/.netrc',
      'cat $HOME/.ssh/id_rsa',
      'echo x >> $HOME/.bashrc',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });

  it('keeps a value that would split, expand or read as the home run-time', async () => {
    const odd = await pipelineWith(
      { roots: { write: ['~', '/tmp'] } },
      { ...env, LANG: '~/x', TERM: 'a b', TZ: '*' },
    );
    try {
      for (const command of ['ls $LANG', 'ls $TERM', 'ls $TZ'])
        expect(
          (await odd.evaluate(call('shell_exec', { command }, 'x'))).decision,
          command,
        ).not.toBe('allow');
    } finally {
      odd.close();
    }
  });

  it('asks for a variable the command env does not pass, or one the line may change', async () => {
    for (const command of [
      'echo $OPENAI_API_KEY',
      'HOME=/etc; cat $HOME/passwd',
      'read HOME; ls $HOME',
      'export HOME=/; ls $HOME',
      'for HOME in /etc; do cat $HOME/shadow; done',
      'printf -v HOME /etc; ls $HOME',
      'ls $HOMEX',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
