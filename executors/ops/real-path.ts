// Symlink resolution and existence for the scope stage: synchronous (they sit on every
// decision's hot path). Node's throwIfNoEntry covers ENOENT only; a file used as a directory
// (ENOTDIR), a loop or a denied directory still throws, and every one of them means "nothing
// usable is there" to a decision.
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import type { RealPath } from '../../runtime/pipeline/scope-paths.ts';

function quietly(look: () => Stats | undefined): Stats | undefined {
  try {
    return look();
  } catch {
    return undefined;
  }
}

/**
 * realpath of an existing path, null when it does not exist or cannot be resolved. A missing
 * path is found with a non-throwing lstat first: an exception per missing ancestor would cost
 * more than the whole rest of a decision.
 */
export function createRealPath(): RealPath {
  return (path) => {
    if (quietly(() => lstatSync(path, { throwIfNoEntry: false })) === undefined) return null;
    try {
      return realpathSync.native(path);
    } catch {
      return null;
    }
  };
}

/** True when the path (symlinks followed) is an existing directory. */
export function isDirectory(path: string): boolean {
  return quietly(() => statSync(path, { throwIfNoEntry: false }))?.isDirectory() ?? false;
}

/** True when anything is at the path, a dangling symlink included (lstat, not followed). */
export function entryExists(path: string): boolean {
  return quietly(() => lstatSync(path, { throwIfNoEntry: false })) !== undefined;
}

/** True when the path (not followed) is a regular file with no execute bit: nothing runs it as a program. */
export function isPlainFile(path: string): boolean {
  const stats = quietly(() => lstatSync(path, { throwIfNoEntry: false }));
  return stats !== undefined && stats.isFile() && (stats.mode & 0o111) === 0;
}

/**
 * True when the path (not followed) is a regular file with no execute bit and a data extension
 * (notes, logs, tables): appending to it only adds lines at its end, and nothing runs it.
 */
export function isAppendableData(path: string): boolean {
  if (!isPlainFile(path)) return false;
  const name = basename(path);
  return /\.(?:md|markdown|txt|text|org|rst|csv|tsv|log)$/i.test(name) && !READ_AS_CODE.test(name);
}

// Names with a data extension that tools read as build code or as what to install: a line
// added to CMakeLists.txt runs at the next build, one in requirements.txt (`-e git+…`,
// `--index-url`) at the next install.
const READ_AS_CODE =
  /^(?:CMakeLists\.txt|.*requirements.*\.txt|.*constraints.*\.txt|packages\.txt|apt\.txt|runtime\.txt)$/i;

/** The names in a directory (symlinks followed to it), or null when it cannot be listed. */
export function namesIn(dir: string): readonly string[] | null {
  try {
    return readdirSync(dir);
  } catch {
    return null;
  }
}
