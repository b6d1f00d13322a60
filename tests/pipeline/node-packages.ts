// A project's installed node packages, as npx finds them: empty package directories under
// node_modules/ (the decision only looks for the directory; nothing here ever runs).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The packages npx's project tools come from. */
export const npxPackages = ['typescript', 'eslint', 'prettier', 'vitest', 'jest'] as const;

/** Makes node_modules/<name>/ for each package in the project. */
export async function installNodePackages(
  project: string,
  names: readonly string[] = npxPackages,
): Promise<void> {
  for (const name of names) await mkdir(join(project, 'node_modules', name), { recursive: true });
}
