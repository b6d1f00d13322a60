// Files people send to the bot, saved where the assistant may work with them: a folder inside
// roots.write, one new file per attachment (never written over another), with a name reduced to
// safe characters, so a sender cannot pick the path (no "../", no hidden or odd names).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The longest file name kept from the sender's (the rest is cut before the extension). */
const MAX_NAME = 80;

/** A sender's file name made safe: letters, digits, `.`, `-`, `_`; no leading dot; bounded. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .replace(/_+/g, '_');
  if (clean === '' || /^\.*$/.test(clean)) return 'file';
  if (clean.length <= MAX_NAME) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
  return clean.slice(0, MAX_NAME - extension.length) + extension;
}

/**
 * Save `bytes` in `dir` as `<UTC time>-<safe name>`, never replacing a file (a second one in the
 * same second gets `-2`, `-3`...). Returns the path written.
 */
export async function saveToInbox(
  dir: string,
  name: string,
  bytes: Uint8Array,
  now: Date = new Date(),
): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  const safe = safeFileName(name);
  for (let attempt = 1; ; attempt += 1) {
    const path = join(dir, `${stamp}${attempt === 1 ? '' : `-${String(attempt)}`}-${safe}`);
    try {
      await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
