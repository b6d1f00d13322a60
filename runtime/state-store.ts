// Small state files under $XDG_STATE_HOME/custode (approvals, rules, history, pairing): a
// crash mid-write leaves either the old file or the new one, never half of either, and a
// file that does not parse is told apart from one that is missing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';

/**
 * Write `text` to `path` atomically: temp file in the same dir, rename. `durable` (the default)
 * adds an fsync of the file and of the dir, for records; context that can be rebuilt skips it.
 */
export async function writeFileAtomic(
  path: string,
  text: string,
  options: { durable?: boolean } = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await syncDir(dir);
}

export type JsonFile<T> =
  | { readonly kind: 'missing' }
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'corrupt'; readonly issues: number };

/** Read and validate a JSON file; text that is not JSON is corrupt like a schema miss. */
export async function readJsonFile<T>(path: string, schema: z.ZodType<T>): Promise<JsonFile<T>> {
  const text = await readTextFile(path);
  if (text === null) return { kind: 'missing' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'corrupt', issues: 1 };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { kind: 'ok', value: parsed.data }
    : { kind: 'corrupt', issues: parsed.error.issues.length };
}

/** fsync a directory so a rename in it survives a power cut (best effort: not every FS allows it). */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}

/** True for a "no such file" error, the one expected failure of a read or rename here. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** The file's text, or null when it does not exist (any other failure throws). */
export async function readTextFile(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** readTextFile for a decision's hot path, where nothing may wait: null when missing. */
export function readTextFileSync(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;

/**
 * Run `work` holding a lock on `path` that other processes respect too (a daemon and a
 * `custode` command changing one small file): `<path>.lock`, a directory, made atomically.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; ; attempt += 1) {
    try {
      await mkdir(lock, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rmdir(lock).catch(() => undefined);
      else await sleep(Math.min(5 * 2 ** attempt, 200));
    }
  }
  try {
    return await work();
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}
