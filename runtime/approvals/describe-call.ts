// What a proposed call is about, in the person's terms: its class (files | shell | web), the
// action verb and the target. The card and the rule store both read calls through this.
import { resolvePath } from '../../executors/resolve-path.ts';
import type { AnyExecutor } from '../../executors/define.ts';

export type ExecutorClass = 'files' | 'shell' | 'web' | 'other';

const VERBS: ReadonlyMap<string, string> = new Map([
  ['fs_read', 'Read'],
  ['fs_list', 'List'],
  ['fs_grep', 'Search'],
  ['fs_glob', 'Find files in'],
  ['fs_write', 'Write'],
  ['fs_edit', 'Edit'],
  ['fs_multi_edit', 'Edit'],
  ['fs_mkdir', 'Create directory'],
  ['fs_delete', 'Delete'],
  ['shell_exec', 'Run'],
  ['web_fetch', 'Fetch'],
]);

/** The action verb for an executor ("Use <name>" for one this table does not know). */
export function verbFor(executor: string): string {
  return VERBS.get(executor) ?? `Use ${executor}`;
}

/** files, shell or web, from the executor's declared capabilities (or its name when unknown). */
export function classOf(executor: AnyExecutor | undefined, name: string): ExecutorClass {
  if (executor === undefined) {
    if (name === 'shell_exec') return 'shell';
    if (name === 'web_fetch') return 'web';
    return name.startsWith('fs_') ? 'files' : 'other';
  }
  const { capabilities } = executor;
  if (capabilities.commandArg !== undefined) return 'shell';
  if (capabilities.urlArg !== undefined) return 'web';
  return capabilities.pathArgs.length > 0 ? 'files' : 'other';
}

/** An own string property of args (model-supplied objects: never through the prototype). */
export function stringArg(args: unknown, key: string): string | undefined {
  if (args === null || typeof args !== 'object' || !Object.hasOwn(args, key)) return undefined;
  const value = (args as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** Absolute paths of every path arg present, resolved as the executors resolve them. */
export function pathsOf(executor: AnyExecutor, args: unknown, env: NodeJS.ProcessEnv): string[] {
  return executor.capabilities.pathArgs.flatMap((key) => {
    const value = stringArg(args, key);
    return value === undefined ? [] : [resolvePath(value, env)];
  });
}

/** The URL's host (lower case), or null when it is not an http(s) URL. */
export function hostOf(url: string | undefined): string | null {
  if (url === undefined || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:'
    ? parsed.hostname.toLowerCase()
    : null;
}

/** A path for people: the home directory shown as `~`. */
export function displayPath(path: string, home: string): string {
  if (path === home) return '~';
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
