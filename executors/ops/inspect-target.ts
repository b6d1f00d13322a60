// The card's look at a target file: stat, a bounded read of its text, and git's view of it.
// git is read with isomorphic-git, never by running git: a repository's own config (filters,
// fsmonitor) would run programs before the person has approved anything.
import * as fs from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import git from 'isomorphic-git';
import { findWorkTree } from './git-root.ts';
import type { InspectTarget } from '../../runtime/approvals/target-facts.ts';

export interface InspectLimits {
  /** Largest file whose text is read for a diff. */
  readonly maxTextBytes: number;
  /** A repository slower than this to answer counts as "not clean". */
  readonly gitTimeoutMs: number;
}

const DEFAULTS: InspectLimits = { maxTextBytes: 256 * 1024, gitTimeoutMs: 2000 };

async function readText(path: string, size: number, max: number): Promise<string | null> {
  if (size > max) return null;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return null;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return null; // not UTF-8: no text to show, the sizes still are
    }
  } finally {
    await handle.close();
  }
}

async function gitClean(real: string, timeoutMs: number): Promise<boolean> {
  const look = (async () => {
    const dir = await findWorkTree(dirname(real));
    if (dir === null) return false;
    return (await git.status({ fs, dir, filepath: relative(dir, real) })) === 'unmodified';
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([look.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An inspector over the real file system; every failure is "unknown" (null), never a throw. */
export function createTargetInspector(limits: Partial<InspectLimits> = {}): InspectTarget {
  const { maxTextBytes, gitTimeoutMs } = { ...DEFAULTS, ...limits };
  return async (path, options) => {
    try {
      const found = await stat(path).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      });
      if (found === null) return { exists: false };
      const kind = found.isFile() ? 'file' : found.isDirectory() ? 'directory' : 'other';
      const isFile = kind === 'file';
      const real = await realpath(path);
      return {
        exists: true,
        kind,
        size: found.size,
        realPath: real,
        text: isFile && options.text ? await readText(path, found.size, maxTextBytes) : null,
        gitClean: isFile && (await gitClean(real, gitTimeoutMs)),
      };
    } catch {
      return null;
    }
  };
}
