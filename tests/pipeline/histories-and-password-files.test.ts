// What a person typed into a REPL or an editor keeps what they typed: a mongosh, irb or pry
// history holds `db.auth("admin", "…")`, vim's viminfo and neovim's shada hold yanked text. They
// are histories like ~/.bash_history, whatever the tool. A password kept alone in a file says so
// only by its name (ansible's `vault_pass`, `passwords.txt`): its text is one plain word.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith, printedIfUncarded } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '';
const histories: Record<string, string> = {
  '.mongosh/mongosh_repl_history': 'db.auth("admin","PLANTEDmongo1")\n',
  '.irb_history': 'login "PLANTEDirb2"\n',
  '.pry_history': 'User.create(password: "PLANTEDpry3")\n',
  '.viminfo': '# Registers:\n"0\tLINE\t0\n\tPLANTEDvim4\n',
  '.local/share/nvim/shada/main.shada': 'PLANTEDshada5',
  '.julia/logs/repl_history.jl': 'token = "PLANTEDjulia6"\n',
};
const passwordFiles: Record<string, string> = {
  '.ansible/vault_pass': 'PLANTEDvault7\n',
  'notes/passwords.txt': 'PLANTEDlist8\n',
  'infra/.vault_pass.txt': 'PLANTEDvault9\n',
};
let pipeline: Pipeline;

beforeAll(async () => {
  for (const [path, text] of Object.entries({
    ...histories,
    ...passwordFiles,
    'notes/compass.txt': 'north\n',
  })) {
    await mkdir(dirname(join(home, path)), { recursive: true });
    await writeFile(join(home, path), text);
  }
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

describe('histories and password files, without a card', () => {
  it.each(Object.keys(histories))(
    'fs_read of ~/%s is refused, as ~/.bash_history is',
    async (path) => {
      const outcome = await pipeline.evaluate(call('fs_read', { path: `~/${path}` }));
      expect(outcome.decision, outcome.reason).toBe('deny');
    },
  );

  it.each(Object.keys(passwordFiles))('fs_read of ~/%s asks', async (path) => {
    const outcome = await pipeline.evaluate(call('fs_read', { path: `~/${path}` }));
    expect(outcome.decision, outcome.reason).toBe('ask');
  });

  it('a grep of the home shows none of them', async () => {
    const shown = await printedIfUncarded(
      pipeline,
      call('fs_grep', { pattern: 'PLANTED', path: '~', max_results: 1000 }),
    );
    expect(shown).not.toMatch(/PLANTED\w+\d/);
  });

  it('a file that only has "pass" inside a word is read without a card', async () => {
    const outcome = await pipeline.evaluate(call('fs_read', { path: '~/notes/compass.txt' }));
    expect(outcome.decision, outcome.reason).toBe('allow');
  });
});
