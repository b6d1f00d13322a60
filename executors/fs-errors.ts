// Node's errno codes turned into the typed errors the planner reports to the model.
import { CustodeError, NotFound, PermissionDenied } from '../runtime/errors.ts';

/** ENOENT/ENOTDIR -> NotFound, EACCES/EPERM/EROFS -> PermissionDenied; our own errors pass through. */
export function mapFsError(error: unknown, path: string): Error {
  if (error instanceof CustodeError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new NotFound(`${path}: no such file or directory`, { cause: error });
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new PermissionDenied(`${path}: permission denied (${code})`, { cause: error });
  }
  return error instanceof Error ? error : new CustodeError(String(error));
}

/** Run one file operation, rethrowing its failure as a typed error about `path`. */
export async function withFsErrors<T>(path: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw mapFsError(error, path);
  }
}
