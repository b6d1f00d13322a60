// What bash joins or splits differently from tree-sitter-bash is decided as bash reads it, through
// the real pipeline (real parser, real files, real git): a line continuation inside a word, words
// after a redirection's target, a redirection hung on a here-document.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { call, pipelineWith } from '../pipeline/pipeline-helpers.ts';

// A home outside /tmp (the sandbox makes /tmp private, so writes there would not count).
let home: string;
let project: string;
let pipeline: Pipeline;

beforeEach(async () => {
  home = await realpath(await mkdtemp('/var/tmp/custode-reading-'));
  project = join(home, 'app');
  await mkdir(join(home, '.ssh'), { recursive: true });
  execFileSync('git', ['init', '-q', project]);
  await writeFile(join(project, 'keep.txt'), 'keep me\n');
  await writeFile(join(home, '.bashrc'), '# mine\n');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  pipeline = await pipelineWith({ roots: { write: ['~'] } }, env);
});
afterEach(async () => {
  pipeline.close();
  await rm(home, { recursive: true, force: true });
});

async function decide(command: string, cwd = project): Promise<PipelineOutcome> {
  return pipeline.evaluate(call('shell_exec', { command, cwd }, 'help me with my project'));
}

/** `plain` with a backslash-newline where it shows ⏎. */
function continued(plain: string): string {
  return plain.replaceAll('⏎', '\\\n');
}

/** Decides `spelled` (a split spelling) exactly as the plain one, and that is `expected`. */
async function expectSameAsPlain(
  spelled: string,
  expected: PipelineOutcome['decision'],
  cwd = project,
): Promise<void> {
  const plain = await decide(spelled.replaceAll('⏎', ''), cwd);
  const split = await decide(continued(spelled), cwd);
  expect(plain.decision, spelled).toBe(expected);
  expect({ decision: split.decision, stage: split.stage }, continued(spelled)).toEqual({
    decision: plain.decision,
    stage: plain.stage,
  });
}

describe('a line continuation inside a word is joined, as bash joins it', () => {
  it('a forbidden path split by a line continuation is still denied', async () => {
    for (const spelled of [
      'cat /etc/sha⏎dow',
      'cat ~/.ss⏎h/id_rsa',
      `cat ${home}/.ssh/id_⏎rsa`,
      'c⏎at ~/.ssh/id_rsa',
      'head -c 99 "$HOME"/.ss⏎h/id_rsa',
      'cat < ~/.ssh/id⏎_rsa',
    ])
      await expectSameAsPlain(spelled, 'deny');
  });

  it('an existing file overwritten through a split name is not written without a card', async () => {
    for (const spelled of [
      'echo gone | tee kee⏎p.txt',
      'echo gone > kee⏎p.txt',
      'cp /dev/null kee⏎p.txt',
      'truncate -s 0 ke⏎ep.txt',
    ])
      await expectSameAsPlain(spelled, 'ask');
  });

  it('a line appended to ~/.bashrc through a split name is not written without a card', async () => {
    for (const cwd of [project, home])
      for (const spelled of [
        'echo evil >> ~/.bash⏎rc',
        'echo evil | tee -a ~/.bas⏎hrc',
        'echo evil | tee -a .bas⏎hrc',
        'cat <<EOF >> ~/.bash⏎rc\nevil\nEOF',
      ])
        await expectSameAsPlain(spelled, 'ask', cwd);
  });

  it('a pager planted in .git/config through a split name is not written without a card', async () => {
    for (const spelled of [
      'printf "[core]\\n\\tpager = touch pwned\\n" >> .git/con⏎fig',
      'echo "[core] pager = touch pwned" | tee -a .g⏎it/config',
      'git con⏎fig core.pa⏎ger "touch pwned"',
      'git config --file .git/con⏎fig core.pager "touch pwned"',
    ])
      await expectSameAsPlain(spelled, 'ask');
  });

  it('a continuation inside single quotes stays text, as it does for bash', async () => {
    const outcome = await decide("echo 'a\\\nb' > notes.txt");
    expect(outcome.decision).toBe('allow');
  });
});

describe('a word the grammar splits in two is judged whole, as bash passes it', () => {
  it('a forbidden path spelled as quotes then an escape is still denied', async () => {
    for (const command of [
      'cat "/etc/sha"\\dow',
      'cat "$HOME/.ss"\\h/id_rsa',
      "head '/etc/'\\shadow",
      'cat ${HOME}\\/.ssh/id_rsa',
      'f="/etc/sha"\\dow; cat "$f"',
      'for f in "/etc/sha"\\dow; do cat "$f"; done',
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it('an existing file named as quotes then an escape is not overwritten without a card', async () => {
    for (const command of ['echo gone | tee "kee"\\p.txt', 'echo gone > "kee"\\p.txt'])
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
  });
});

describe('words the grammar hangs on a redirection belong to the command', () => {
  it('a file named after a redirection target is read as the command reads it', async () => {
    for (const command of [
      'cat 2>/dev/null ~/.ssh/id_rsa',
      'cat > /tmp/out ~/.ssh/id_rsa',
      '< /dev/null cat ~/.ssh/id_rsa',
      'cat <<EOF ~/.ssh/id_rsa\nx\nEOF',
    ])
      expect(await decide(command), command).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it('a redirection after a here-document opener writes its file (never read-only)', async () => {
    for (const command of ['cat <<EOF > keep.txt\ngone\nEOF', 'cat <<EOF >> ~/.bashrc\nevil\nEOF'])
      expect(await decide(command), command).toMatchObject({ decision: 'ask' });
  });
});
