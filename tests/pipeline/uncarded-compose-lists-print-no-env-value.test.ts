// `docker compose config --services`, `--volumes` and `--profiles` print lists of names, but compose
// reads the project's `.env` and fills its values into the model first: a profile written as
// `${API_KEY}` prints the key, and the consistency check's errors name an interpolated network or
// service. The lists run without a card only where the `.env` compose reads (here or in a directory
// above) passes the check a `cat .env` gets, as none does. No compose plugin is installed here:
// decisions only.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const COMPOSE = 'services:\n  web:\n    image: nginx\n    profiles: ["${API_KEY}"]\n';
const LISTS = [
  'docker compose config --services',
  'docker compose config --volumes',
  'docker compose config --profiles',
];
let pipeline: Pipeline;
let keyed: string;
let plain: string;

beforeAll(async () => {
  keyed = await makeTempDir('compose-keyed-');
  await writeFile(join(keyed, 'compose.yaml'), COMPOSE);
  await writeFile(join(keyed, '.env'), 'API_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c\n');
  await mkdir(join(keyed, 'cmd'));
  plain = await makeTempDir('compose-plain-');
  await writeFile(join(plain, 'compose.yaml'), 'services:\n  web:\n    image: nginx\n');
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

const decide = (command: string, cwd: string) =>
  pipeline.evaluate(
    call('shell_exec', { command, cwd }, 'which services are in the compose file?'),
  );

describe('compose config lists', () => {
  it('ask where the .env compose fills in holds a credential, also from a subdirectory', async () => {
    for (const cwd of [keyed, join(keyed, 'cmd')])
      for (const command of LISTS)
        expect((await decide(command, cwd)).decision, `${command} in ${cwd}`).not.toBe('allow');
  });

  it('run without a card in a project with no .env', async () => {
    for (const command of LISTS)
      expect(await decide(command, plain), command).toMatchObject({
        decision: 'allow',
        reason: 'read-only: docker compose config',
      });
  });
});

describe('compose config lists, left open', () => {
  // Compose's `include:` (and `extends: file:`) brings a compose file from anywhere, interpolated
  // from that file's own `.env` or the `env_file` the include names: `include: [../notes/compose.yaml]`
  // with `profiles: ["${TOKEN}"]` there and TOKEN in `../notes/.env` would print it. The decision
  // reads no compose file's text, so it cannot see the include.
  it.todo('asks when the compose file includes another project whose .env holds a credential');
});
