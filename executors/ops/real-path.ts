// Symlink resolution for the scope stage: synchronous (it sits on every decision's hot path).
import { realpathSync } from 'node:fs';
import type { RealPath } from '../../runtime/pipeline/scope-paths.ts';

/** realpath of an existing path, null when it does not exist or cannot be resolved. */
export function createRealPath(): RealPath {
  return (path) => {
    try {
      return realpathSync.native(path);
    } catch {
      return null;
    }
  };
}
