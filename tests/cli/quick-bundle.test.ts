// The quick bundle that `custode hook` and `custode check` start from (runtime/cli/quick-loader.cjs):
// the build's code cache belongs to the bundle and is used; a cache made for another bundle is
// never used, and a cache V8 refuses costs time only: the answers stay the same.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.ts';

const repo = join(import.meta.dirname, '../..');
const home = process.env.HOME ?? '';

/** Whether the loader at `loader` used a code cache, asked in a fresh process. */
function cacheUsed(loader: string): boolean {
  const script = `const { loadQuick } = await import(${JSON.stringify(pathToFileURL(loader).href)}); process.stdout.write(String(loadQuick().cacheUsed));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return out === 'true';
}

/** A copy of the bin, the loader and the quick bundle, with `cache` as its code cache. */
function installWithCache(cache: Buffer): string {
  const root = mkdtempSync(join(home, 'quick-'));
  mkdirSync(join(root, 'runtime/cli'), { recursive: true });
  mkdirSync(join(root, 'runtime/built'), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  for (const file of [
    'runtime/cli/custode.cjs',
    'runtime/cli/hook-client.cjs',
    'runtime/cli/quick-loader.cjs',
    'runtime/built/quick.cjs',
  ])
    copyFileSync(join(repo, file), join(root, file));
  writeFileSync(join(root, 'runtime/built/quick.cjs.cache'), cache);
  return root;
}

const rmRoot = JSON.stringify({
  session_id: 'quick',
  cwd: home,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf /' },
});

async function denies(root: string): Promise<void> {
  const run = await runCli(
    ['hook', 'claude-code'],
    rmRoot,
    {},
    join(root, 'runtime/cli/custode.cjs'),
  );
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({
    hookSpecificOutput: { permissionDecision: 'deny' },
  });
}

describe('the quick bundle', { timeout: 60_000 }, () => {
  const cache = readFileSync(join(repo, 'runtime/built/quick.cjs.cache'));

  it('starts with the code cache the build made for it', () => {
    expect(cacheUsed(join(repo, 'runtime/cli/quick-loader.cjs'))).toBe(true);
  });

  it('never uses a cache made for another bundle, and still answers', async () => {
    const otherDigest = Buffer.from('0'.repeat(64), 'latin1');
    const root = installWithCache(Buffer.concat([otherDigest, cache.subarray(64)]));
    expect(cacheUsed(join(root, 'runtime/cli/quick-loader.cjs'))).toBe(false);
    await denies(root);
  });

  it('answers the same when V8 refuses a corrupt cache', async () => {
    const root = installWithCache(Buffer.concat([cache.subarray(0, 64), Buffer.alloc(4096, 7)]));
    expect(cacheUsed(join(root, 'runtime/cli/quick-loader.cjs'))).toBe(false);
    await denies(root);
  });
});
