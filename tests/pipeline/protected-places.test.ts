// Protected places through the real pipeline: a file tool, a walk from the home and a listing
// ask the one protected list, so no planted secret comes back without a card, and none with one.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const secret = 'FAKE-SECRET-5d21';
const intent = 'find where I wrote about the budget';
let pipeline: Pipeline;
let state: string;

// Stores a person has in an ordinary home, each holding a planted fake secret.
const PLANTED = [
  '.ssh/id_ed25519',
  '.aws/credentials',
  '.npmrc',
  '.config/gh/hosts.yml',
  '.config/app/credentials.env',
  '.mozilla/firefox/x.default/logins.json',
  '.config/google-chrome/Default/Login Data',
  '.vault-token',
  '.kube/config',
  '.netrc',
  '.pgpass',
  '.bash_history',
  '.thunderbird/x.default/logins.json',
  '.config/rclone/rclone.conf',
];

beforeAll(async () => {
  for (const store of PLANTED) {
    await mkdir(dirname(join(home, store)), { recursive: true });
    await writeFile(join(home, store), `token = ${secret}\n`);
  }
  await writeFile(join(home, 'notes.txt'), `budget ${secret} is only a note\n`);
  // Stow-style dotfiles: the protected name is a link into a plain-looking folder.
  await mkdir(join(home, 'dotfiles'), { recursive: true });
  await writeFile(join(home, 'dotfiles', 'pypirc'), `password = ${secret}\n`);
  await symlink(join(home, 'dotfiles', 'pypirc'), join(home, '.pypirc'));
  // Custode's own state where XDG puts it, outside the home: histories hold whole chats.
  state = await makeTempDir('state-');
  await mkdir(join(state, 'custode', 'history'), { recursive: true });
  await writeFile(join(state, 'custode', 'history', 'telegram-1.jsonl'), `{"text":"${secret}"}\n`);
  pipeline = await pipelineWith({}, { ...process.env, XDG_STATE_HOME: state });
});
afterAll(() => pipeline.close());

async function run(executor: string, args: Record<string, unknown>): Promise<unknown> {
  const outcome = await pipeline.evaluate(call(executor, args, intent));
  expect(outcome.decision, `${executor} ${JSON.stringify(args)}`).toBe('allow');
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran.ok).toBe(true);
  return ran.ok ? ran.result : null;
}

describe('protected places: file tools and walks', () => {
  it('fs_grep over the whole home finds the note and none of the planted stores', async () => {
    const result = JSON.stringify(await run('fs_grep', { pattern: secret, path: '~' }));
    expect(result).toContain('notes.txt');
    for (const store of PLANTED) expect(result).not.toContain(store.split('/')[0] ?? store);
  });

  it('fs_glob over the home names no protected place', async () => {
    const result = JSON.stringify(await run('fs_glob', { pattern: '**/*', path: '~' }));
    expect(result).toContain('notes.txt');
    for (const name of ['.ssh', '.aws', '.npmrc', 'gh/hosts.yml', '.mozilla', 'credentials.env'])
      expect(result).not.toContain(name);
  });

  it('fs_list of the home leaves the stores out and counts them', async () => {
    const result = (await run('fs_list', { path: '~' })) as {
      entries: string[];
      protected_omitted?: number;
    };
    expect(result.entries).toContain('notes.txt');
    for (const name of ['.ssh/', '.aws/', '.npmrc', '.mozilla/', '.vault-token', '.kube/'])
      expect(result.entries).not.toContain(name);
    expect(result.protected_omitted).toBeGreaterThanOrEqual(6);
  });

  it.each(PLANTED)('fs_read of ~/%s is refused by the guard', async (store) => {
    const outcome = await pipeline.evaluate(call('fs_read', { path: `~/${store}` }, intent));
    expect(outcome).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it('where a protected store links to is protected too (stow-style dotfiles)', async () => {
    const read = await pipeline.evaluate(call('fs_read', { path: '~/dotfiles/pypirc' }, intent));
    expect(read).toMatchObject({ decision: 'deny', stage: 'guard' });
    const found = JSON.stringify(await run('fs_grep', { pattern: secret, path: '~/dotfiles' }));
    expect(found).not.toContain('pypirc');
  });

  it("fs_read of Custode's own history is refused wherever XDG_STATE_HOME puts it", async () => {
    const path = join(state, 'custode', 'history', 'telegram-1.jsonl');
    const outcome = await pipeline.evaluate(call('fs_read', { path }, intent));
    expect(outcome).toMatchObject({ decision: 'deny', stage: 'guard' });
    expect(outcome.reason).toMatch(/Custode's own/);
  });

  it("fs_grep rooted in Custode's own state is refused, and from above it skips that state", async () => {
    const inside = await pipeline.evaluate(
      call('fs_grep', { pattern: secret, path: join(state, 'custode') }, intent),
    );
    expect(inside).toMatchObject({ decision: 'deny', stage: 'guard' });
    const above = JSON.stringify(await run('fs_grep', { pattern: secret, path: state }));
    expect(above).not.toContain('telegram-1.jsonl');
  });
});
