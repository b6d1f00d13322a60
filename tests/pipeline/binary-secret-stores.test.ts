// A secret store that is a binary file (a key store, a PKCS#12 bundle, a DER or OpenSSH binary
// key, a GnuPG secret key, a KeePass database, a macOS keychain), copied or hard-linked under an
// ordinary name, has no text and no telling name: it is known by its first bytes. Real stores
// made by the real tools where the machine has them, planted under ordinary names, reached by
// file tools and by lines that print bytes; every call a tier allows runs for real.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import type { PipelineOutcome } from '../../runtime/pipeline/types.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { hasProgram } from '../helpers/tools.ts';
import {
  call,
  pipelineWith,
  printedIfUncarded as printedIfUncardedBy,
} from './pipeline-helpers.ts';

const intent = 'help me with my files';
let home: string;
let work: string;
let pipeline: Pipeline;
/** Ordinary name -> the store's bytes. */
const stores = new Map<string, Buffer>();

function run(program: string, args: readonly string[]): void {
  execFileSync(program, args, { cwd: work, stdio: 'ignore', timeout: 60_000 });
}

/** Each store made the way its owner makes it, where the tool is here. */
async function makeStores(): Promise<Map<string, string>> {
  const made = new Map<string, string>();
  if (hasProgram('openssl', 'version')) {
    run(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'].concat([
        '-nodes',
        '-subj',
        '/CN=ada',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
      ]),
    );
    run('openssl', [
      'pkcs12',
      '-export',
      '-in',
      'cert.pem',
      '-inkey',
      'key.pem',
      '-passout',
      'pass:x',
      '-out',
      'bundle.p12',
    ]);
    run('openssl', [
      'pkcs8',
      '-topk8',
      '-nocrypt',
      '-in',
      'key.pem',
      '-outform',
      'DER',
      '-out',
      'key.der',
    ]);
    run('openssl', [
      'pkcs8',
      '-topk8',
      '-passout',
      'pass:x',
      '-in',
      'key.pem',
      '-outform',
      'DER',
      '-out',
      'key-enc.der',
    ]);
    run('openssl', ['genrsa', '-traditional', '-out', 'rsa.pem', '1024']);
    run('openssl', ['rsa', '-traditional', '-in', 'rsa.pem', '-outform', 'DER', '-out', 'rsa.der']);
    made
      .set('bundle.p12', 'taxes-2024.bin')
      .set('key.der', 'blob.dat')
      .set('key-enc.der', 'blob2.dat');
    made.set('rsa.der', 'old-export');
  }
  if (hasProgram('keytool', '-help')) {
    run(
      'keytool',
      [
        '-genkeypair',
        '-keystore',
        'release.jks',
        '-storetype',
        'JKS',
        '-storepass',
        'changeit',
      ].concat(['-keypass', 'changeit', '-dname', 'CN=ada', '-alias', 'a', '-keyalg', 'EC']),
    );
    made.set('release.jks', 'app-settings.data');
  }
  if (hasProgram('ssh-keygen', '-?') || hasProgram('ssh-keygen', '-V')) {
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', 'id', '-C', 'ada']);
    const armoured = await readFile(join(work, 'id'), 'utf8');
    const body = armoured.replace(/-----[^-]+-----/g, '').replace(/\s/g, '');
    await writeFile(join(work, 'id.bin'), Buffer.from(body, 'base64'));
    made.set('id.bin', 'photo-index');
  }
  if (hasProgram('gpg')) {
    const gnupg = join(work, 'gnupg');
    await mkdir(gnupg, { mode: 0o700 });
    const gpg = ['--homedir', gnupg, '--batch', '--pinentry-mode', 'loopback', '--passphrase', ''];
    run('gpg', [...gpg, '--quick-gen-key', 'Ada <ada@example.org>', 'ed25519', 'default', 'never']);
    execFileSync('gpg', [...gpg, '--export-secret-keys', '--output', join(work, 'secret.gpg')], {
      stdio: 'ignore',
      timeout: 60_000,
    });
    made.set('secret.gpg', 'backup-2023');
  }
  // KeePass and the macOS keychain have no tool here: their documented headers, then noise.
  await writeFile(
    join(work, 'db.kdbx'),
    Buffer.concat([Buffer.from('03d9a29a67fb4bb501000400', 'hex'), randomBytes(2048)]),
  );
  await writeFile(
    join(work, 'login.keychain-db'),
    Buffer.concat([Buffer.from('kych\0\x01\0\0', 'latin1'), randomBytes(2048)]),
  );
  made.set('db.kdbx', 'recipes.old').set('login.keychain-db', 'cache.bin');
  // Stores that are text without a telling line: PuTTY's key file (PuTTY manual, appendix C)
  // and GnuPG's extended key format (agent/keyformat.txt); fake key material.
  const lines = randomBytes(96).toString('base64');
  await writeFile(
    join(work, 'key.ppk'),
    `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ada\nPublic-Lines: 1\n${lines.slice(0, 64)}\nPrivate-Lines: 1\n${lines.slice(64)}\nPrivate-MAC: ${'ab'.repeat(32)}\n`,
  );
  await writeFile(
    join(work, 'agent.key'),
    `Created: 20250101T000000\nKey: (private-key (ecc (curve Ed25519)(q #${'cd'.repeat(32)}#)(d #${randomBytes(32).toString('hex')}#)))\n`,
  );
  made.set('key.ppk', 'servers.txt').set('agent.key', 'misc.txt');
  return made;
}

beforeAll(async () => {
  home = process.env.HOME ?? '';
  work = await makeTempDir('stores-');
  const made = await makeStores();
  await mkdir(join(home, 'notes'), { recursive: true });
  await mkdir(join(home, 'linked'), { recursive: true });
  for (const [file, ordinary] of made) {
    const bytes = await readFile(join(work, file));
    await writeFile(join(home, 'notes', ordinary), bytes);
    await link(join(home, 'notes', ordinary), join(home, 'linked', `${ordinary}.txt`));
    stores.set(ordinary, bytes);
  }
  await writeFile(join(home, 'notes', 'todo.md'), '# todo\n');
  // Ordinary binaries beside them: a certificate (public) and an image.
  if (stores.size > 2)
    await writeFile(
      join(home, 'plain-cert.der'),
      execFileSync('openssl', ['x509', '-in', join(work, 'cert.pem'), '-outform', 'DER']),
    );
  pipeline = await pipelineWith({ roots: { write: ['~', '/tmp'] } });
}, 120_000);
afterAll(() => {
  pipeline.close();
});

function decide(executor: string, args: object): Promise<PipelineOutcome> {
  return pipeline.evaluate(call(executor, args, intent));
}

/** What the call printed when a tier allowed it ('' when it needed a card). */
function printedIfUncarded(executor: string, args: object): Promise<string> {
  return printedIfUncardedBy(pipeline, call(executor, args, intent));
}

/** The store's bytes past its header, in every form a line can print them. */
function expectNoTrace(printed: string, bytes: Buffer, what: string): void {
  const body = bytes.subarray(16, 40);
  const squeezed = printed.replace(/\\n|\s/g, '');
  for (const form of [body.toString('hex'), body.toString('base64').slice(0, 16)])
    expect(squeezed, what).not.toContain(form);
}

describe('a binary secret store under an ordinary name', () => {
  it('is read by no file tool without a card', async () => {
    expect(stores.size).toBeGreaterThanOrEqual(2);
    for (const [name, bytes] of stores) {
      for (const path of [join(home, 'notes', name), join(home, 'linked', `${name}.txt`)]) {
        expect((await decide('fs_read', { path })).decision, path).not.toBe('allow');
        expectNoTrace(await printedIfUncarded('fs_read', { path }), bytes, path);
      }
    }
  });

  it('is printed by no line that reads bytes, one file or a tree', async () => {
    for (const [name, bytes] of stores) {
      for (const command of [
        `cat notes/${name}`,
        `xxd notes/${name}`,
        `base64 notes/${name}`,
        `od -An -tx1 notes/${name}`,
        `xxd linked/${name}.txt`,
        'grep -ra . notes',
        'grep -r . linked | xxd',
        'cat linked/*',
      ]) {
        const args = { command, cwd: home };
        expect((await decide('shell_exec', args)).decision, command).not.toBe('allow');
        expectNoTrace(await printedIfUncarded('shell_exec', args), bytes, command);
      }
    }
  });

  it('is withheld from fs_grep over its directory, a store that is text included', async () => {
    for (const dir of ['notes', 'linked']) {
      const printed = await printedIfUncarded('fs_grep', { pattern: '.', path: join(home, dir) });
      expect(printed, dir).toContain('credentials_withheld');
      expect(printed, dir).not.toMatch(/Private-Lines|private-key/);
      for (const [name, bytes] of stores) expectNoTrace(printed, bytes, `${dir}/${name}`);
    }
    const notes = await printedIfUncarded('fs_grep', {
      pattern: 'todo',
      path: join(home, 'notes'),
    });
    expect(notes).toContain('todo.md');
  });

  it.skipIf(!hasProgram('openssl', 'version'))(
    'leaves a public certificate in DER and a note readable without a card',
    async () => {
      for (const command of [
        'xxd plain-cert.der',
        'od -An -tx1 plain-cert.der',
        'cat notes/todo.md',
      ])
        expect((await decide('shell_exec', { command, cwd: home })).decision, command).toBe(
          'allow',
        );
    },
  );
});
