// The one list of protected places: what the guard forbids by name and what the sandbox hides
// are the same families, so no store is readable by one route and refused by the other.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_PATHS, forbiddenPathRule } from '../../constitution/forbidden-paths.ts';
import { maskedStores, protectionOf } from '../../constitution/protected.ts';
import { shellExec } from '../../executors/shell-exec.ts';
import { makeContext } from '../executors/make-context.ts';

const home = '/data/ada';
const sampleOf = (mask: string): string => mask.replace(/\*/g, 'someapp');

// Stores a person keeps as single files; the rest are directories.
const FILE_STORES =
  /(?:^|\/)(?:\.netrc|_netrc|\.npmrc|\.pypirc|\.vault-token|\.git-credentials|credentials|[^/]+\.[a-z]+)$/;

describe('the protected list', () => {
  it('every family says how the sandbox hides it, or why it does not', () => {
    for (const rule of FORBIDDEN_PATHS) {
      const hides = (rule.masks?.home?.length ?? 0) + (rule.masks?.system?.length ?? 0) > 0;
      expect(hides || (rule.unmasked ?? '').length > 10, rule.name).toBe(true);
    }
  });

  it('the guard forbids, by the same family, every place the sandbox masks', () => {
    for (const rule of FORBIDDEN_PATHS) {
      for (const mask of rule.masks?.home ?? [])
        expect(forbiddenPathRule(join(home, sampleOf(mask)))?.name, mask).toBe(rule.name);
      for (const mask of rule.masks?.system ?? [])
        expect(forbiddenPathRule(sampleOf(mask))?.name, mask).toBe(rule.name);
    }
  });

  it.each([
    '~/.config/gh/hosts.yml',
    '~/.npmrc',
    '~/.vault-token',
    '~/.mozilla/firefox/x/logins.json',
    '~/.config/google-chrome/Default/Login Data',
    '~/.kube/config',
    '~/.local/state/custode/history/telegram-1.jsonl',
    '~/.local/share/custode/vaglio/2026-11.jsonl',
  ])('%s is protected under any home', (path) => {
    expect(protectionOf(path.replace(/^~/, home), [])).not.toBeNull();
  });

  it("Custode's own dirs are protected wherever XDG puts them", () => {
    const own = ['/srv/custode-state/custode'];
    expect(protectionOf('/srv/custode-state/custode/rules.json', own)?.name).toMatch(/Custode/);
    expect(protectionOf('/srv/custode-state/other', own)).toBeNull();
  });

  it('a real sandboxed run with the home writable reads none of the planted stores', async () => {
    const testHome = process.env.HOME ?? '/nonexistent';
    const secret = 'FAKE-STORE-SECRET-41c9';
    const planted = maskedStores().home.map(sampleOf);
    for (const store of planted) {
      const path = join(testHome, store);
      if (FILE_STORES.test(store)) {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, secret);
      } else {
        await mkdir(path, { recursive: true });
        await writeFile(join(path, 'token'), secret);
      }
    }
    const command = 'grep -r FAKE-STORE . 2>/dev/null; find . -type f -exec cat {} + 2>/dev/null';
    const result = await shellExec.run({ command }, await makeContext({ roots: { write: ['~'] } }));
    expect(result.sandbox).toBe('bwrap');
    expect(planted.length).toBeGreaterThan(25);
    expect(result.stdout).not.toContain(secret);
    // The control: unsandboxed, the same command prints every planted store.
    const bare = await shellExec.run({ command }, await makeContext({ sandbox: { mode: 'off' } }));
    expect(bare.stdout.split(secret).length - 1).toBeGreaterThanOrEqual(planted.length);
  });
});
