// shell_exec: one command line through the sandbox (bubblewrap on Linux), with a timeout
// ceiling and an output cap. A non-zero exit is a result for the model to read, not an error.
import { checkedAddresses } from './web/checked-host.ts';
import { startFetchProxy, type FetchProxy, type HostCheck } from './web/fetch-proxy.ts';
import { constants } from 'node:os';
import * as z from 'zod';
import { withoutCredentials } from '../constitution/stored-credentials.ts';
import { ExecTimeoutCeilingExceeded, InvalidArguments } from '../runtime/errors.ts';
import { defineExecutor, type ExecutorContext } from './define.ts';
import { nestedRepositories } from './sandbox/nested-repositories.ts';
import { basename, dirname } from 'node:path';
import type { CodeView, ShellResult } from './ops/shell-ops.ts';
import type { Grant } from '../runtime/pipeline/grant.ts';
import { withFsErrors } from './fs-errors.ts';
import { dropIfUnused, makeNewOutputFile } from './new-output-file.ts';
import {
  assertPinnedUnchanged,
  assertStillRecoverable,
  configuredWriteRoots,
  resolveInRoots,
  writableRootsOf,
} from './boundary.ts';

/** Variables a command may see; API keys and bot tokens in the daemon's env stay out. */
const passedEnv = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
  // Kept so tools find their files, and so the sandbox masks Custode's own dirs where they really are.
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  // Kept so the sandbox knows which runtime dir to hide from calls no person approved.
  'XDG_RUNTIME_DIR',
];

/** The daemon env reduced to the harmless variables above. */
export function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of passedEnv) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return out;
}

/**
 * git settings for a call no person approved, at git's highest precedence (the environment):
 * no hooks, no fsmonitor, no bare repository found by discovery. They run programs a repository names, and a commit runs them
 * with .git writable, where they could plant a hook that later runs outside the sandbox.
 */
const UNCARDED_GIT: NodeJS.ProcessEnv = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'core.hooksPath',
  GIT_CONFIG_VALUE_0: '/dev/null',
  GIT_CONFIG_KEY_1: 'core.fsmonitor',
  GIT_CONFIG_VALUE_1: 'false',
  // A directory the model built to look like a bare repository brings its own config.
  GIT_CONFIG_KEY_2: 'safe.bareRepository',
  GIT_CONFIG_VALUE_2: 'explicit',
};

/**
 * Python's bytecode for code run read-only goes to the private /tmp: imports and py_compile
 * work with the work tree read-only, and leave nothing behind.
 */
const READ_ONLY_PYTHON: NodeJS.ProcessEnv = { PYTHONPYCACHEPREFIX: '/tmp/pycache' };

/**
 * The decision's read-only places, plus every repository nested in a work tree whose own .git
 * is among them (project code without a card must not plant hooks in a vendored clone either).
 */
async function withNestedRepositories(
  readOnly: readonly string[],
  ctx: ExecutorContext,
): Promise<string[]> {
  const trees = readOnly.filter((path) => basename(path) === '.git').map((path) => dirname(path));
  const nested = await Promise.all(trees.map((tree) => nestedRepositories(tree, ctx.ops.fs)));
  return [...readOnly, ...nested.flat()];
}

/** Run `bash -c command` (args as $1...) in the sandbox; returns stdout, stderr, exit code and flags. */
export const shellExec = defineExecutor({
  name: 'shell_exec',
  description:
    'Run a shell command line with bash in a sandbox: the system is read-only, only the workspace roots are writable, /tmp is private and empty, and there is no network unless configured. Pass the working directory as cwd rather than starting with `cd DIR &&`, prefer read-only commands, and create or change files with fs_write, fs_edit and fs_mkdir rather than redirections, here-documents or sed -i (those run at once more often); a database query is `sqlite3 DB "SELECT …"` printing to the output. Returns stdout, stderr and the exit code; long output is cut (truncated: true).',
  args: z.lazy(() =>
    z.strictObject({
      command: z.string().min(1).describe('The command line, run by bash -c.'),
      args: z
        .array(z.string())
        .optional()
        .describe('Extra arguments, available to the command as $1, $2, ...'),
      cwd: z.string().min(1).optional().describe('Working directory; default ~.'),
      timeout_ms: z.number().int().positive().optional().describe('Time limit in milliseconds.'),
      request_approval: z
        .boolean()
        .optional()
        .describe(
          'Ask the person first, so the command may write every workspace root. Use it when a run without approval failed with "Read-only file system".',
        ),
    }),
  ),
  capabilities: { access: 'exec', pathArgs: ['cwd'], commandArg: 'command' },
  critical: true,
  skipJudge: false,
  async run(args, ctx) {
    const { sandbox } = ctx.config;
    const { grant } = ctx;
    const uncarded = grant.by === 'tier';
    if (args.timeout_ms !== undefined && args.timeout_ms > sandbox.timeout_ceiling_ms) {
      throw new ExecTimeoutCeilingExceeded(
        `timeout_ms ${String(args.timeout_ms)} is above the ceiling of ${String(sandbox.timeout_ceiling_ms)} ms (config sandbox.timeout_ceiling_ms); ask for less time`,
      );
    }
    const cwd = await resolveInRoots(args.cwd ?? '~', 'read', ctx);
    const cwdStats = await withFsErrors(cwd, () => ctx.ops.fs.stat(cwd));
    if (!cwdStats.isDirectory()) throw new InvalidArguments(`cwd ${cwd} is not a directory`);
    const readOnlyWithin = await withNestedRepositories(uncarded ? grant.readOnlyWithin : [], ctx);
    assertPinnedUnchanged(ctx);
    // An in-place edit without a card: each file it rewrites is still one git can give back; a
    // file it only creates (a rewrite's new file) is still absent.
    if (uncarded && grant.tier === 'workspace')
      for (const path of grant.records) {
        const absent = await ctx.ops.fs.lstat(path).then(
          () => false,
          (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
        );
        if (!absent) await assertStillRecoverable(path, ctx);
      }
    // Code nobody reviewed saving its output: its one new file, made now, is all it may write.
    const made =
      uncarded && grant.newFile !== undefined ? await makeNewOutputFile(grant.newFile) : null;
    // The fetch tier: the network only through a proxy that checks each host as web_fetch does.
    const proxy = uncarded && grant.viaProxy ? await startFetchProxy(proxyCheck(ctx)) : null;
    const result = await runThrough(proxy, () =>
      ctx.ops.shell.run({
        command: args.command,
        args: args.args ?? [],
        cwd,
        timeoutMs:
          args.timeout_ms ?? Math.min(sandbox.default_timeout_ms, sandbox.timeout_ceiling_ms),
        outputCapBytes: sandbox.output_cap_bytes,
        signal: ctx.signal,
        writableRoots: writableRootsOf(ctx),
        readOnlyWithin,
        // Code nobody reviewed sees only what its decision said (code-view.ts).
        ...(uncarded && grant.codeView !== undefined ? { codeView: grant.codeView } : {}),
        // A call no person approved reaches no host socket (Docker, colima, the user's D-Bus).
        hideHostSockets: uncarded,
        visibleRoots: configuredWriteRoots(ctx),
        // A person approved a card that said this needs the network (or saved it as a rule).
        network:
          sandbox.network ||
          proxy !== null ||
          ((grant.by === 'person' || grant.by === 'rule') && grant.network),
        // It lists processes or sockets (or, approved, signals them): constitution/process-use.ts.
        hostProcesses: grant.by !== 'policy' && grant.hostProcesses,
        env: {
          ...commandEnv(ctx.env),
          ...(uncarded ? UNCARDED_GIT : {}),
          ...(uncarded && grant.tier === 'read-only-code' ? READ_ONLY_PYTHON : {}),
          ...(proxy === null ? {} : proxyEnv(proxy.url)),
        },
        // No person looked at this call: it may not fill the disk (or RAM, in /dev/shm) in one file.
        ...(uncarded
          ? {
              maxFileBytes: sandbox.uncarded_max_file_bytes,
              maxProcesses: sandbox.uncarded_max_processes,
            }
          : {}),
        tmpSizeBytes: sandbox.tmp_size_bytes,
      }),
    );
    if (made !== null && result.exit_code !== 0) await dropIfUnused(made);
    const notes = [
      ...(proxy === null
        ? []
        : proxy.refusals.map((reason) => `The fetch was refused: ${reason}.`)),
      ...(uncarded ? narrowedNotes(result, grant, sandbox.uncarded_max_file_bytes) : []),
      ...(result.sandbox === 'bwrap' ? tmpFullNotes(result, sandbox.tmp_size_bytes) : []),
    ];
    const note: { note?: string } = notes.length === 0 ? {} : { note: notes.join(' ') };
    // No person saw this call: whatever it read, it prints no key, token or login.
    const shown = uncarded
      ? { stdout: withoutCredentials(result.stdout), stderr: withoutCredentials(result.stderr) }
      : {};
    return { ...result, ...shown, ...note };
  },
});

/** How curl reaches the proxy, and nothing bypasses it (no_proxy empty). */
function proxyEnv(url: string): NodeJS.ProcessEnv {
  return {
    https_proxy: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    HTTP_PROXY: url,
    no_proxy: '',
    NO_PROXY: '',
  };
}

/** A host the fetch proxy may tunnel to: web_fetch's check of a hop. */
function proxyCheck(ctx: ExecutorContext): HostCheck {
  return (host) => checkedAddresses(host, ctx.config.web, (name) => ctx.ops.http.lookup(name));
}

/** Run with the proxy (if any) up, and close it however the run ends. */
async function runThrough<T>(proxy: FetchProxy | null, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    await proxy?.close();
  }
}

/** Exit status of a process SIGXFSZ killed (bwrap and bash both report 128 + the signal). */
const killedByFileSize = 128 + constants.signals.SIGXFSZ;

/** True when a write went past RLIMIT_FSIZE: the writer was killed (SIGXFSZ) or got EFBIG. */
function hitFileSizeLimit(result: ShellResult): boolean {
  return (
    result.exit_code === killedByFileSize ||
    result.stderr.includes('File size limit exceeded') ||
    result.stderr.includes('File too large')
  );
}

/**
 * A call that ran without approval could write only what its decision named, and no file past
 * the size limit; when that is why it failed, the result says so and how to ask (the model
 * cannot see the decision otherwise).
 */
function narrowedNotes(
  result: ShellResult,
  grant: Extract<Grant, { by: 'tier' }>,
  maxFileBytes: number,
): string[] {
  const notes: string[] = [];
  // bash and coreutils say "Read-only file system"; node and python name the errno (EROFS).
  if (/read-only file system|EROFS/i.test(result.stderr)) notes.push(readOnlyNote(grant));
  // python, node, perl and ruby each say it their way; ENOENT and errno 2 are the common part.
  if (grant.codeView !== undefined && /No such file|ENOENT|Errno 2/.test(result.stderr))
    notes.push(codeViewNote(grant.codeView));
  if (hitFileSizeLimit(result)) {
    notes.push(
      `A file reached the ${String(maxFileBytes)}-byte limit for calls without approval (config sandbox.uncarded_max_file_bytes). To write a larger file, call shell_exec again with request_approval: true.`,
    );
  }
  return notes;
}

/** Why a write failed "Read-only file system", and how to ask for one that may write. */
function readOnlyNote({ tier, rule, writable }: Extract<Grant, { by: 'tier' }>): string {
  const ask = 'call shell_exec again with request_approval: true (the person is asked)';
  if (tier === 'read-only-code' && writable.length > 0)
    return `This ran without approval: it runs code nobody has reviewed (read-only code: ${rule}), so it may write only ${writable.join(', ')}, its new output file, and its private /tmp. A write elsewhere fails, and will again on a retry; to let it write, ${ask}.`;
  if (tier === 'read-only-code')
    return `This ran read-only without approval: it runs code nobody has reviewed (read-only code: ${rule}), so it may write nothing but its private /tmp and has no network. A write elsewhere fails, and will again on a retry; to let it write, ${ask}.`;
  const where = writable.length === 0 ? 'nothing but /tmp' : writable.join(', ');
  return `This ran without approval and could write only ${where}. To write elsewhere, ${ask}.`;
}

/** Why a file was not there for code nobody reviewed, and how to show it one. */
function codeViewNote({ places, masked }: CodeView): string {
  const seen = places.length === 0 ? 'none of your files' : `only ${places.join(', ')}`;
  const hidden =
    masked.length === 0
      ? ''
      : ` Hidden there too, as files that may hold a credential or their history: ${masked.map((mask) => mask.path).join(', ')}.`;
  return `Code nobody reviewed runs without approval seeing ${seen} (besides /usr, /etc and the tool directories on PATH), read-only: a file elsewhere (the rest of the home, /srv, /mnt, /var) is not there.${hidden} Name the file after the code as an argument (it is checked and shown), run it from the project's directory (cwd), or call shell_exec again with request_approval: true.`;
}

/** Approval does not enlarge the private tmpfs, so when one may be full the note says where else to write. */
function tmpFullNotes(result: ShellResult, tmpSizeBytes: number): string[] {
  if (!result.stderr.includes('No space left on device')) return [];
  return [
    `The sandbox's private /tmp and /dev/shm hold at most ${String(tmpSizeBytes)} bytes each (config sandbox.tmp_size_bytes); if the write went there, write large files under a workspace root instead.`,
  ];
}
