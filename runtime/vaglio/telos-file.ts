// Reads the person's TELOS.md from the config dir. The one file the vaglio reads itself, so it
// is listed among the side-effect owners in eslint.config.js; parsing stays pure in constitution/.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseTelos, type TelosGoal } from '../../constitution/telos.ts';
import { configDir } from '../paths.ts';

/** Where TELOS.md lives: `$XDG_CONFIG_HOME/custode/TELOS.md`. */
export function telosPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'TELOS.md');
}

/**
 * The person's goals, weights summing to 1. A missing file means no goals; any other read
 * error is thrown (the judge then fails by its own policy rather than judging without them).
 */
export async function loadTelos(env: NodeJS.ProcessEnv): Promise<TelosGoal[]> {
  try {
    return parseTelos(await readFile(telosPath(env), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
