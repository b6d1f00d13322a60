// Small state files under $XDG_STATE_HOME/custode (approvals, rules, history, pairing): a
// crash mid-write leaves either the old file or the new one, never half of either, and a
// file that does not parse is told apart from one that is missing.
import { readFileSync, statSync } from 'node:fs';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';

/** A random suffix for a temporary file. node:crypto loads on the first write, not at start. */
const tempSuffix = (): string =>
  process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');

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
  const temp = join(dir, `.${tempSuffix()}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  // A full disk or a refused rename must not leave the temp file behind.
  try {
    try {
      await handle.writeFile(text, 'utf8');
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
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

/**
 * What identifies this version of a file (inode, size, mtime), or "missing": a writer's
 * atomic rename always changes it, so a reader can keep a parsed copy until it does.
 */
export function fileStamp(path: string): string {
  try {
    const info = statSync(path);
    return `${String(info.ino)}:${String(info.size)}:${String(info.mtimeMs)}`;
  } catch (error) {
    if (isMissing(error)) return 'missing';
    throw error;
  }
}

/** The JSON value of `text`, or undefined when it is not JSON (a schema then rejects it). */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why each of `dirs` cannot be written (created if missing, then a probe file written and
 * removed), one line per dir; [] when all can. A daemon that cannot write its state would
 * report "serving" and then fail every turn.
 */
export async function unwritableDirs(dirs: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const dir of dirs) {
    const probe = join(dir, `.write-probe-${tempSuffix()}`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(probe, 'probe', { durable: false });
      await unlink(probe);
    } catch (error) {
      await unlink(probe).catch(() => undefined);
      problems.push(describeWriteFailure(error, dir));
    }
  }
  return problems;
}

const causes: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a file stands where its directory should be',
  EEXIST: 'a file stands where its directory should be',
};

/** Why a write failed, for a person: the cause in words, the code, and where. */
export function describeWriteFailure(error: unknown, where: string): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const cause = code === undefined ? undefined : causes[code];
  const what = cause ?? (error instanceof Error ? error.message : String(error));
  return `${what}${code === undefined ? '' : ` (${code})`} at ${where}`;
}

/** What the daemon and doctor say when the state or audit dirs cannot be written. */
export function notServingText(problems: readonly string[]): string {
  return `Custode cannot write where it keeps its state and audit log, so it will not serve:\n  ${problems.join('\n  ')}\nFix: free space or fix the permissions there, then start it again.`;
}

/**
 * Append `text` (whole lines) to `path`: all of it or, when the disk refuses part way, none
 * of it (the file is cut back to where it was), so a reader never meets half a line.
 */
export async function appendWhole(path: string, text: string): Promise<void> {
  const handle = await open(path, 'a', 0o600);
  try {
    const before = (await handle.stat()).size;
    try {
      await handle.appendFile(text, 'utf8');
    } catch (error) {
      await handle.truncate(before).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}
