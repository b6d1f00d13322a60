// Model-supplied paths, made absolute the same way everywhere: ~ and $HOME expand to the
// context's HOME (never process.env), relative paths are taken from HOME.
import { isAbsolute, resolve } from 'node:path';
import { homeDir } from '../runtime/paths.ts';

/** Expand a leading `~`, `$HOME` or `${HOME}` against env.HOME; other text is returned as is. */
export function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  const home = homeDir(env);
  const match = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(path);
  return match ? home + path.slice(match[0].length) : path;
}

/** An absolute, normalised path: `~` expanded, relative paths resolved against HOME. */
export function resolvePath(path: string, env: NodeJS.ProcessEnv): string {
  const expanded = expandHome(path, env);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(homeDir(env), expanded);
}
