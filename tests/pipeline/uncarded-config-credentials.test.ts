// A password or key written into a project's own configuration (docker-compose's
// POSTGRES_PASSWORD, Django's SECRET_KEY, Spring's datasource password, a kubeconfig token, a
// docker auth) is a credential wherever it lives: code run without a card could print it
// reversed, past any output check, and a fetch could carry it out. Real files, real sandbox.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../executors/make-context.ts';
import { git, plant, shellCallsWithFreshPipeline } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'help me with my project';
let project: string;

beforeEach(async () => {
  project = await makeTempDir('configured-');
  await plant(`${project}/src/a.py`, 'print(1)\n');
  git('init', '-q', project);
});

const { pipeline, decide } = shellCallsWithFreshPipeline(() => project, intent);

// Prints every file of the tree it can open reversed: no output check can know the text.
const PRINT_TREE_REVERSED =
  "python3 -c \"import os\nfor r,d,fs in os.walk('.'):\n  for f in fs:\n    try: print(open(os.path.join(r,f),errors='replace').read()[::-1])\n    except OSError as e: print(e.errno)\"";

const CONFIGS: readonly (readonly [string, string, string])[] = [
  [
    'docker-compose.yml',
    'services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ',
    'Pg4ssw0rdXyz',
  ],
  ['settings.py', 'DEBUG = False\nSECRET_KEY = "', 'dj4ngo-k3y-9x8y7z"\n'],
  ['src/main/resources/application.properties', 'spring.datasource.password=', 'Spr1ngDbPw77'],
  ['config/kubeconfig', 'users:\n- name: x\n  user:\n    token: ', 'kube70kenAbCdEf123'],
  ['.vscode/settings.json', '{"sqltools.connections":[{"password":"', 'V5codeDbPw1"}]}'],
  ['deploy/registry.json', '{"auths":{"x":{"auth":"', 'dXNlcjpwYXNzd29yZDEyMw=="}}}'],
  ['terraform.auto.tfvars', 'aws_secret_key = "', 'wJalrXUtnFEMI7MDENG8bPxRfiCY"\n'],
];

describe('code run without a card never sees a credential kept in a project config', () => {
  it.skipIf(!sandboxWorks).each(CONFIGS)(
    'hides one from code run over the tree, which prints the rest (%s)',
    async (path, before, secret) => {
      await plant(`${project}/${path}`, `${before}${secret}\n`);
      const outcome = await decide(PRINT_TREE_REVERSED);
      expect(outcome, path).toMatchObject({
        decision: 'allow',
        grant: {
          codeView: {
            masked: expect.arrayContaining([{ path: `${project}/${path}`, kind: 'file' }]),
          },
        },
      });
      const ran = await pipeline().invoke(outcome, new AbortController().signal);
      expect(JSON.stringify(ran), path).toContain(')1(tnirp');
      expect(JSON.stringify(ran), path).not.toContain(
        [...secret.trim()].reverse().join('').slice(1, 9),
      );
      // The same file read as text asks, as any file holding a credential does.
      expect((await decide(`cat ${path} | rev`)).decision, path).toBe('ask');
    },
  );

  it.skipIf(!sandboxWorks)(
    'still runs code over a config whose secrets come from elsewhere, and prints it',
    async () => {
      await plant(
        `${project}/docker-compose.yml`,
        'services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n      POSTGRES_USER: postgres\n',
      );
      await plant(
        `${project}/settings.py`,
        'SECRET_KEY = os.environ["SECRET_KEY"]\nPASSWORD_FILE = "/run/secrets/db"\nmax_token = 4096\n',
      );
      await plant(
        `${project}/config.yml`,
        'auth: true\npassword: postgres\ntoken_url: https://x/1\n',
      );
      const outcome = await decide(PRINT_TREE_REVERSED);
      expect(outcome).toMatchObject({ decision: 'allow', grant: { tier: 'read-only-code' } });
      const ran = await pipeline().invoke(outcome, new AbortController().signal);
      expect(JSON.stringify(ran)).toContain('}DROWSSAP_BD{$');
    },
  );
});
