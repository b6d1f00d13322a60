// Symlink resolution for the scope stage: synchronous (it sits on every decision's hot path).
import { lstatSync, realpathSync, statSync } from 'node:fs';
import type { RealPath } from '../../runtime/pipeline/scope-paths.ts';

/**
 * realpath of an existing path, null when it does not exist or cannot be resolved. A missing
 * path is found with a non-throwing lstat first: an exception per missing ancestor would cost
 * more than the whole rest of a decision.
 */
export function createRealPath(): RealPath {
  return (path) => {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return null;
    try {
      return realpathSync.native(path);
    } catch {
      return null;
    }
  };
}

/** True when the path (symlinks followed) is an existing directory. */
export function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** True when anything is at the path, a dangling symlink included (lstat, not followed). */
export function entryExists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}
