// Docker compose loads the project before it prints anything, filling the values of the .env next
// to each compose file into the model: its own .env and its directories' above, and the .env of
// every file it includes or extends, from anywhere. A profile written `${API_KEY}` prints the key
// with `config --profiles`, and `ps`/`logs` name an interpolated network in their errors before
// they reach the daemon. The decision reads no compose file, so no compose command runs without a
// card, with a .env here, with one only in an included project, or with none. No compose plugin
// is installed here: decisions only.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const KEYED = 'services:\n  web:\n    image: nginx\n    profiles: ["${API_KEY}"]\n';
const COMMANDS = [
  'docker compose config --services',
  'docker compose config --volumes',
  'docker compose config --profiles',
  'docker compose ps',
  'docker compose logs --tail 20 web',
];
let pipeline: Pipeline;
let keyed: string;
let including: string;

beforeAll(async () => {
  keyed = await makeTempDir('compose-keyed-');
  await writeFile(join(keyed, 'compose.yaml'), KEYED);
  await writeFile(join(keyed, '.env'), 'API_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c\n');
  await mkdir(join(keyed, 'cmd'));
  // A project with no .env of its own, whose compose file includes the keyed one.
  including = await makeTempDir('compose-including-');
  await writeFile(join(including, 'compose.yaml'), `include:\n  - ${keyed}/compose.yaml\n`);
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
});
afterAll(() => pipeline.close());

const decide = (command: string, cwd: string) =>
  pipeline.evaluate(
    call('shell_exec', { command, cwd }, 'which services are in the compose file?'),
  );

describe('docker compose never prints a .env value without a card', () => {
  it('asks where the .env compose fills in holds a credential, also from a subdirectory', async () => {
    for (const cwd of [keyed, join(keyed, 'cmd')])
      for (const command of COMMANDS)
        expect((await decide(command, cwd)).decision, `${command} in ${cwd}`).not.toBe('allow');
  });

  it('asks when the compose file includes another project whose .env holds a credential', async () => {
    for (const command of COMMANDS)
      expect((await decide(command, including)).decision, command).not.toBe('allow');
  });
});
