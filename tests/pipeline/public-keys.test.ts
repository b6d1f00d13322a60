// "Show me my public SSH key so I can add it to GitHub": the public half of a key pair is read
// without a card, judged by what the file holds, while every private key, a private key renamed
// `.pub` and a `.pub` link to a private key stay forbidden, at decision time and in the sandbox.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellExec } from '../../executors/shell-exec.ts';
import { bwrapAvailable } from '../../executors/sandbox/bwrap.ts';
import { makeContext, makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const hasBwrap = await bwrapAvailable();
const home = process.env.HOME ?? '/nonexistent';
const ssh = join(home, '.ssh');
const PUBLIC =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILocbLAV3pPmYBcX4DPfn8CcSq7D497wl6VQW2sLx4vM me@laptop\n';
const PRIVATE =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nPLANTED-PRIVATE-7f3e\n-----END OPENSSH PRIVATE KEY-----\n';

beforeAll(async () => {
  await mkdir(ssh, { recursive: true, mode: 0o700 });
  await writeFile(join(ssh, 'id_ed25519'), PRIVATE, { mode: 0o600 });
  await writeFile(join(ssh, 'id_ed25519.pub'), PUBLIC);
  await writeFile(join(ssh, 'renamed.pub'), PRIVATE);
  await writeFile(join(ssh, 'config'), 'Host *\n  IdentityFile ~/.ssh/id_ed25519\n');
  await symlink(join(ssh, 'id_ed25519'), join(ssh, 'link.pub')).catch(() => undefined);
});

async function decide(
  executor: string,
  args: unknown,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const pipeline = await pipelineWith({}, env);
  return (await pipeline.evaluate(call(executor, args, 'show me my public ssh key'))).decision;
}

describe('a public key file in ~/.ssh', () => {
  it('is read by fs_read and the shell readers without a card', async () => {
    expect(await decide('fs_read', { path: '~/.ssh/id_ed25519.pub' })).toBe('allow');
    expect(await decide('shell_exec', { command: 'cat ~/.ssh/id_ed25519.pub' })).toBe('allow');
    const fingerprint = 'ssh-keygen -l -f ~/.ssh/id_ed25519.pub';
    expect(await decide('shell_exec', { command: fingerprint })).toBe('allow');
    expect(await decide('shell_exec', { command: 'head -n 1 ~/.ssh/id_ed25519.pub' })).toBe(
      'allow',
    );
  });

  it('keeps private keys, renamed private keys, links to them and the rest of ~/.ssh forbidden', async () => {
    for (const name of ['id_ed25519', 'renamed.pub', 'link.pub', 'config']) {
      expect(await decide('fs_read', { path: `~/.ssh/${name}` })).toBe('deny');
      expect(await decide('shell_exec', { command: `cat ~/.ssh/${name}` })).toBe('deny');
    }
    // ssh-keygen -y reads the private key beside it: today's card, never an uncarded run.
    const derive = await decide('shell_exec', {
      command: 'ssh-keygen -y -f ~/.ssh/id_ed25519.pub',
    });
    expect(derive).not.toBe('allow');
  });

  it('is never written, and a glob over ~/.ssh keeps the family rule', async () => {
    expect(await decide('fs_write', { path: '~/.ssh/id_ed25519.pub', content: 'x' })).toBe('deny');
    expect(
      await decide('shell_exec', { command: 'cat ~/.ssh/id_ed25519.pub > ~/.ssh/renamed.pub' }),
    ).toBe('deny');
    // renamed.pub and link.pub match too: not every match is a public key.
    expect(await decide('shell_exec', { command: 'cat ~/.ssh/*.pub' })).toBe('deny');
  });

  it('a glob runs without a card when every file it matches is a public key', async () => {
    const other = await makeTempDir('home-');
    await mkdir(join(other, '.ssh'), { recursive: true });
    await writeFile(join(other, '.ssh', 'id_ed25519'), PRIVATE);
    await writeFile(join(other, '.ssh', 'id_ed25519.pub'), PUBLIC);
    await writeFile(join(other, '.ssh', 'work.pub'), PUBLIC);
    const env = { ...process.env, HOME: other };
    expect(await decide('shell_exec', { command: 'cat ~/.ssh/*.pub' }, env)).toBe('allow');
    expect(await decide('shell_exec', { command: 'cat ~/.ssh/*' }, env)).toBe('deny');
  });

  it('is still a public key when pasted with indented lines and lines of spaces', async () => {
    const other = await makeTempDir('home-');
    await mkdir(join(other, '.ssh'), { recursive: true });
    const pasted = `  ${PUBLIC}   \n\t\n ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7 work\n`;
    await writeFile(join(other, '.ssh', 'pasted.pub'), pasted);
    await writeFile(join(other, '.ssh', 'spaced.pub'), `${PUBLIC} \n  \n`);
    const env = { ...process.env, HOME: other };
    for (const name of ['pasted.pub', 'spaced.pub']) {
      expect(await decide('fs_read', { path: `~/.ssh/${name}` }, env)).toBe('allow');
      expect(await decide('shell_exec', { command: `cat ~/.ssh/${name}` }, env)).toBe('allow');
    }
  });

  it('a .pub under an .ssh inside another store keeps that store forbidden', async () => {
    const other = await makeTempDir('home-');
    const env = { ...process.env, HOME: other };
    for (const store of ['.gnupg', '.aws', '.kube', '.password-store']) {
      await mkdir(join(other, store, '.ssh'), { recursive: true });
      await writeFile(join(other, store, '.ssh', 'deploy.pub'), PUBLIC);
      const path = `~/${store}/.ssh/deploy.pub`;
      expect(await decide('fs_read', { path }, env), path).toBe('deny');
      expect(await decide('shell_exec', { command: `cat ${path}` }, env), path).toBe('deny');
    }
  });
});

describe('the sandbox over ~/.ssh', () => {
  it.skipIf(!hasBwrap)(
    'shows only the real public key: not the private key, a renamed one or a link to it',
    async () => {
      const ctx = await makeContext();
      const command =
        'for f in id_ed25519 id_ed25519.pub renamed.pub link.pub config; do cat -- ~/.ssh/$f 2>/dev/null; done; ls -a ~/.ssh';
      const result = await shellExec.run({ command }, ctx);
      expect(result.sandbox).toBe('bwrap');
      expect(result.stdout).toContain(PUBLIC);
      expect(result.stdout).not.toContain('PLANTED-PRIVATE');
      expect(result.stdout).not.toContain('IdentityFile');
      const listed = result.stdout.slice(result.stdout.indexOf(PUBLIC) + PUBLIC.length);
      expect(listed.split('\n').filter((name) => !['', '.', '..'].includes(name))).toEqual([
        'id_ed25519.pub',
      ]);
    },
  );
});
