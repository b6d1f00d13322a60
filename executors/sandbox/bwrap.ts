// ShellOps inside bubblewrap. The binary path is injectable (tests simulate a host without
// it); when bwrap is missing or cannot build a sandbox, run() refuses with install advice.
import { execa } from 'execa';
import { access, constants, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SandboxUnavailable } from '../../runtime/errors.ts';
import { configDir, dataDir, homeDir, stateDir } from '../../runtime/paths.ts';
import type { ShellOps } from '../ops/shell-ops.ts';
import { buildBwrapArgs, type SecretMask } from './bwrap-args.ts';
import { runLimited } from './run-process.ts';
import { secretStores } from './secret-stores.ts';

/** Where distributions install bwrap. */
export const defaultBwrapPath = '/usr/bin/bwrap';

const installAdvice =
  'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora/RHEL: dnf install bubblewrap), or set sandbox.mode: off in the config to run commands unsandboxed.';

/** True when `bwrapPath` is executable and can actually start a minimal sandbox here. */
export async function bwrapAvailable(bwrapPath: string = defaultBwrapPath): Promise<boolean> {
  return (await probeBwrap(bwrapPath)) === undefined;
}

/** Undefined when bwrap works, else why not. */
async function probeBwrap(bwrapPath: string): Promise<string | undefined> {
  try {
    await access(bwrapPath, constants.X_OK);
  } catch {
    return `bubblewrap was not found at ${bwrapPath}`;
  }
  const probe = await execa(
    bwrapPath,
    ['--unshare-all', '--cap-drop', 'ALL', '--ro-bind', '/', '/', 'true'],
    {
      reject: false,
      stdin: 'ignore',
      timeout: 10_000,
    },
  );
  return probe.exitCode === 0
    ? undefined
    : `bubblewrap at ${bwrapPath} cannot create a sandbox: ${probe.stderr}`;
}

/**
 * The secret stores under the request's HOME, and Custode's own config, data and state dirs
 * wherever XDG_* puts them, that exist, each with the kind of mask it needs.
 */
export async function findSecretMasks(env: NodeJS.ProcessEnv): Promise<SecretMask[]> {
  const home = homeDir(env);
  const paths = new Set([
    ...secretStores.map((relative) => join(home, relative)),
    configDir(env),
    dataDir(env),
    stateDir(env),
  ]);
  // One readdir per parent instead of one stat per store: this runs before every command.
  const byParent = new Map<string, string[]>();
  for (const path of paths) {
    const names = byParent.get(dirname(path)) ?? [];
    names.push(basename(path));
    byParent.set(dirname(path), names);
  }
  const found = await Promise.all(
    [...byParent].map(async ([parent, names]): Promise<(SecretMask | undefined)[]> => {
      const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
      const wanted = new Set(names);
      return Promise.all(
        entries
          .filter((entry) => wanted.has(entry.name))
          .map(async (entry): Promise<SecretMask | undefined> => {
            const path = join(parent, entry.name);
            // A link is masked as what it points to (bwrap mounts over the link's target).
            const isDirectory = entry.isSymbolicLink()
              ? await stat(path).then(
                  (stats) => stats.isDirectory(),
                  () => undefined,
                )
              : entry.isDirectory();
            if (isDirectory === undefined) return undefined;
            return { path, kind: isDirectory ? 'dir' : 'file' };
          }),
      );
    }),
  );
  return found.flat().filter((mask) => mask !== undefined);
}

/** ShellOps that runs every command in a fresh bubblewrap sandbox; results say sandbox: 'bwrap'. */
export function createBwrapShellOps(options: { bwrapPath?: string } = {}): ShellOps {
  const bwrapPath = options.bwrapPath ?? defaultBwrapPath;
  let probed: Promise<string | undefined> | undefined;
  return {
    kind: 'bwrap',
    async run(request) {
      probed ??= probeBwrap(bwrapPath);
      const problem = await probed;
      // Only success is remembered: installing bubblewrap takes effect without a restart.
      if (problem !== undefined) probed = undefined;
      if (problem !== undefined) throw new SandboxUnavailable(`${problem}. ${installAdvice}`);
      const argv = buildBwrapArgs(
        request,
        homeDir(request.env),
        await findSecretMasks(request.env),
      );
      return runLimited(bwrapPath, argv, request, 'bwrap');
    },
  };
}
