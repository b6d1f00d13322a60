// A tool's own config in the home (a dot-directory or dotfile: ~/.config/openstack/clouds.yaml,
// ~/.wgetrc) that keeps a password, token or API key as a plain `key: value` is a credential
// store like ~/.netrc: fs_read, cat and a walk over it ask, whatever the value looks like. The
// same line in a project's source is no store (a test fixture's `password: 'x'`): no card.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = process.env.HOME ?? '/nonexistent';
const intent = 'check my tool settings';
let pipeline: Pipeline;
let project: string;

const STORES: readonly (readonly [string, string])[] = [
  ['.config/openstack/clouds.yaml', 'clouds:\n  lab:\n    auth:\n      password: Lab-Cloud-2291\n'],
  ['.config/helm/repositories.yaml', 'repositories:\n- name: corp\n  password: c0rpHelm!x\n'],
  [
    '.config/transmission/settings.json',
    '{\n  "rpc-password": "tr4nsmit-pw",\n  "rpc-port": 9091\n}\n',
  ],
  ['.config/aichat/config.yaml', 'model: gpt\napi_key: q8Zr2mVt5kLp\n'],
  ['.continue/config.json', '{"models":[{"title":"x","apiKey":"c0ntinue-k3y-value"}]}\n'],
  ['.wgetrc', 'user = ada\npassword = wg3t-s3cret\n'],
  ['.config/nextcloud/nextcloud.cfg', '[Accounts]\n0\\password=n3xtcl0ud-pw\n'],
];

beforeAll(async () => {
  for (const [file, text] of STORES) {
    await mkdir(dirname(join(home, file)), { recursive: true });
    await writeFile(join(home, file), text);
  }
  project = await makeTempDir('project-');
  await mkdir(join(project, 'test'), { recursive: true });
  await writeFile(
    join(project, 'test', 'login.test.js'),
    // A placeholder: a written-out value of ten or more characters with a digit is a credential
    // in any file (stored-credentials.ts), fixture or not.
    "const user = { name: 'ada', password: 'changeme' };\n",
  );
  await writeFile(join(project, 'config.yml'), 'database:\n  password: ${DB_PASSWORD}\n');
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

describe("a tool's config in the home that keeps a login", () => {
  it.each(STORES.map(([file]) => [file] as const))('fs_read and cat of ~/%s ask', async (file) => {
    for (const [executor, args] of [
      ['fs_read', { path: join(home, file) }],
      ['shell_exec', { command: `cat ~/${file}` }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, intent));
      expect(['ask', 'deny'], `${executor} ${file}: ${outcome.reason}`).toContain(outcome.decision);
    }
  });

  it('a project file whose password-named key holds a placeholder or a reference is read without a card', async () => {
    for (const file of ['test/login.test.js', 'config.yml']) {
      const outcome = await pipeline.evaluate(
        call('fs_read', { path: join(project, file) }, intent),
      );
      expect(outcome.decision, `${file}: ${outcome.reason}`).toBe('allow');
    }
  });
});

describe('a search of the home', () => {
  it("fs_grep leaves a tool config's password setting out of what it prints", async () => {
    const outcome = await pipeline.evaluate(
      call('fs_grep', { pattern: 'password|api_key|apiKey', path: join(home, '.config') }, intent),
    );
    expect(outcome.decision, outcome.reason).toBe('allow');
    const ran = await pipeline.invoke(outcome, new AbortController().signal);
    const shown = JSON.stringify(ran);
    for (const secret of [
      'Lab-Cloud-2291',
      'c0rpHelm',
      'tr4nsmit-pw',
      'q8Zr2mVt5kLp',
      'n3xtcl0ud-pw',
    ])
      expect(shown).not.toContain(secret);
  });
});

describe('keys to live sessions in the home', () => {
  it('the X cookie and a Jupyter kernel connection file are never read', async () => {
    for (const [file, text] of [
      ['.Xauthority', 'MIT-MAGIC-COOKIE-1 0123456789abcdef'],
      ['.local/share/jupyter/runtime/kernel-1.json', '{"key": "a3f9c2e1-77", "shell_port": 5555}'],
    ] as const) {
      await mkdir(dirname(join(home, file)), { recursive: true });
      await writeFile(join(home, file), text);
      const outcome = await pipeline.evaluate(call('fs_read', { path: join(home, file) }, intent));
      expect(outcome.decision, `${file}: ${outcome.reason}`).toBe('deny');
    }
  });
});
