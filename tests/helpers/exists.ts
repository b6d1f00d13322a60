// Whether anything is at a path (following links): what a test checks after a call ran or not.
import { stat } from 'node:fs/promises';

/** True when the path exists. */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
