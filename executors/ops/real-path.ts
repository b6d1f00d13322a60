// Symlink resolution for the scope stage: synchronous (it sits on every decision's hot path).
import { lstatSync, realpathSync } from 'node:fs';
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
