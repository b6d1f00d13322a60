// Custode as another agent's safety gate: a PreToolUse payload in, an answer out, decided by the
// same pipeline as every Custode call (its audit line included). Nothing runs here.
//
// What Custode's allow means for an agent that runs the call itself, without Custode's sandbox
// and executors: no objection, never a permission. A shell command allowed by an uncarded tier
// (read-only, workspace, project code) is safe only because bubblewrap holds it to what the parse
// promised; a file read or a fetch is allowed because Custode's executor re-checks the real path
// and the address when it runs. The other agent does neither, so an allow is forwarded as no
// decision: the agent's own permission settings still apply. The hook only ever tightens.
import * as z from 'zod';
import type { Config } from '../config.ts';
import { DomainNotAllowed } from '../errors.ts';
import { bareHost } from '../../executors/web/address-policy.ts';
import { checkedAddresses } from '../../executors/web/checked-host.ts';
import { localAnswer } from '../../executors/web/local-names.ts';
import { createPipeline, type GatePipeline } from '../pipeline/pipeline.ts';
import type { PipelineOutcome } from '../pipeline/types.ts';
import type { PathOracle } from '../pipeline/paths.ts';
import type { TreeObstacle } from '../../executors/ops/tree-protection.ts';
import { basename, dirname, join } from 'node:path';
import { HOST_SERVICE_CLIENTS } from '../../constitution/programs.ts';
import { printsUnreadText } from '../../constitution/unread-text.ts';
import { encodedSecretTokenIn, secretTokenIn } from '../../constitution/secret-tokens.ts';
import { ANY_CREDENTIAL } from '../../constitution/stored-credentials.ts';
import { parseShell } from '../shell/parse.ts';
import type { ParsedShell } from '../shell/types.ts';
import { gitHistoryOnHost } from './git-history.ts';
import { gitOnHost } from './git-on-host.ts';
import { listedNames, listedTrees } from './name-walks.ts';
import { foreignToolCalls, mapToolCall, type MappedCall } from './tool-map.ts';

export type HookAnswer =
  /** Custode refuses or wants a person to decide; the reason is shown. */
  | { readonly kind: 'deny' | 'ask'; readonly reason: string }
  /** Custode has no objection, or no executor for the tool: the agent's own permissions decide. */
  | { readonly kind: 'no-decision'; readonly reason: string }
  /** The payload could not be read or Custode failed: the call must be blocked (fail closed). */
  | { readonly kind: 'fail'; readonly reason: string };

/** The fields of a PreToolUse payload the gate reads (Claude Code's, and Codex's alike). */
const payloadSchema = z.lazy(() =>
  z.looseObject({
    hook_event_name: z.literal('PreToolUse'),
    tool_name: z.string().min(1),
    tool_input: z.unknown(),
    cwd: z.string().startsWith('/'),
  }),
);

export type HookAgent = 'claude-code' | 'codex';

export interface HookGate {
  /** Answer one payload (the request body as text); never throws. */
  answer(payload: string): Promise<HookAnswer>;
  close(): Promise<void>;
}

export interface HookGateOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  /** Which agent asks: the audit line's origin and intent name it. */
  readonly agent: HookAgent;
}

/** A tool that stands for several calls (a patch of several files) answers its strictest. */
const STRICTNESS: Readonly<Record<HookAnswer['kind'], number>> = {
  'no-decision': 0,
  ask: 1,
  deny: 2,
  fail: 3,
};

/**
 * The most Custode calls one tool call is judged as (an MCP input's paths, each read, walked and
 * written; a Codex patch's files), and the time they may take together. An agent runs a call its
 * hook has not answered in time (Claude Code: 60 s for a command hook, the `timeout` of an http
 * hook: 10 s in the README's settings) as if the hook had said nothing, so past either a person
 * decides.
 */
const maxJudgedCalls = 256;
const judgeBudgetMs = 8_000;

/** Working directories whose pipelines a long-running gate keeps ready. */
const keptPipelines = 16;

/** Custode's outcome as the answer to another agent (see the note at the top of this file). */
export function answerFor(outcome: PipelineOutcome): HookAnswer {
  if (outcome.decision !== 'allow') return { kind: outcome.decision, reason: outcome.reason };
  // Code nobody reviewed is let through only because the sandbox hides the protected places, the
  // network and Custode's own environment from it: what it does is known to no decision.
  if (outcome.grant.by === 'tier' && outcome.grant.tier === 'read-only-code')
    return {
      kind: 'ask',
      reason: `Custode runs this code nobody reviewed (${outcome.reason}) only in its sandbox, which hides protected places and the network; the agent would run it with the whole home`,
    };
  const why =
    outcome.grant.by === 'tier'
      ? `Custode would run this without a card only inside its sandbox (${outcome.reason})`
      : `Custode has no objection (${outcome.reason})`;
  return { kind: 'no-decision', reason: `${why}; the agent's own permissions decide` };
}

/** The http(s) URLs a call fetches: web_fetch's, or a shell line's literal URL words. */
function fetchedUrls(call: MappedCall): URL[] {
  const { url, command } = call.args;
  const words =
    call.executor === 'web_fetch' && typeof url === 'string'
      ? [url]
      : call.executor === 'shell_exec' && typeof command === 'string'
        ? parseShell(command).commands.flatMap((each) =>
            each.args.filter((word) => word.literal).map((word) => word.text),
          )
        : [];
  return words.flatMap((word) => {
    if (!/^https?:\/\//i.test(word)) return [];
    try {
      return [new URL(word)];
    } catch {
      return [];
    }
  });
}

/**
 * Custode's web_fetch, and its fetch proxy for `curl`/`wget`, resolve a host name when they run
 * and connect only to the public address they checked; the decision reads only the URL's text.
 * The agent fetches with its own client: a name the machine itself resolves to a loopback,
 * private or link-local address (an address written as one, /etc/hosts, the machine's own name, a
 * name with no dot or a local suffix) is refused here. No DNS query is sent: the agent's own
 * permissions may still ask the person, and a look-up made before they answer would already carry
 * the name (and any data in it) out. A public name that DNS points at a private address is left
 * to the agent's permissions.
 */
async function addressAnswer(
  answer: HookAnswer,
  call: MappedCall,
  config: Config,
): Promise<HookAnswer> {
  if (answer.kind !== 'no-decision') return answer;
  for (const url of fetchedUrls(call)) {
    const host = bareHost(url);
    const local = localAnswer(host);
    if (local === null) continue;
    try {
      if (local === 'local') {
        if (config.web.private_allowlist.some((entry) => entry.trim().toLowerCase() === host))
          continue;
        throw new DomainNotAllowed(
          `${host} names this machine or its local network (its own name, a name with no dot or a local suffix)`,
        );
      }
      await checkedAddresses(host, config.web, () => Promise.resolve(local));
    } catch (error) {
      if (!(error instanceof DomainNotAllowed)) continue;
      return {
        kind: 'deny',
        reason: `DomainNotAllowed: ${error.message} (the agent's fetch would connect there; Custode's checks the address it connects to)`,
      };
    }
  }
  return answer;
}

/**
 * The secret shape in what a tool without a Custode executor sends (a WebSearch query, an MCP
 * server's message), plain or in base64 or hex; null when none. Its receiver is unknown, so a
 * token there leaves the machine as one in a web_fetch URL does.
 */
function sentToken(input: unknown): string | null {
  const text = JSON.stringify(input ?? null);
  return (secretTokenIn(text) ?? encodedSecretTokenIn(text))?.name ?? null;
}

/** Any glob wildcard: `*`, `?`, a class or a brace list. */
const WILDCARD = /[*?[{]/;

/**
 * Where a call walks a tree with the agent's own walker, which does not leave protected places
 * out, and what in that tree makes it ask. A grep opens every file below its root: a protected
 * place or a file holding a credential (a dotenv file) stops it. A glob with any wildcard names
 * entries below the pattern's literal directory (`.s?h/*` names what is in ~/.ssh, `.*` names
 * ~/.netrc): a protected place stops it (a dotenv file's name is no secret).
 */
function walkOf(
  call: MappedCall,
  paths: PathOracle,
):
  | { readonly root: string; readonly stops: readonly TreeObstacle['kind'][] }
  | { readonly glob: string }
  | null {
  const root = call.args.path;
  if (typeof root !== 'string') return null;
  if (call.executor === 'fs_grep')
    return { root: paths.absolute(root), stops: ['protected', 'credential'] };
  const pattern = call.args.pattern;
  if (call.executor !== 'fs_glob' || typeof pattern !== 'string' || !WILDCARD.test(pattern))
    return null;
  const full = paths.absolute(pattern, paths.absolute(root));
  const segments = full.split('/');
  const first = segments.findIndex((segment) => WILDCARD.test(segment));
  // Only the last name a pattern: it names what sits in one directory, matched now.
  if (first === segments.length - 1 && !full.includes('**')) return { glob: full };
  return { root: segments.slice(0, first).join('/') || '/', stops: ['protected'] };
}

/** The directory whose names a call prints: LS's path, Grep's root, a Glob's literal directory. */
function namedDir(call: MappedCall, paths: PathOracle): string | null {
  const { path, pattern } = call.args;
  if (typeof path !== 'string') return null;
  if (call.executor === 'fs_list' || call.executor === 'fs_grep') return paths.absolute(path);
  if (call.executor !== 'fs_glob' || typeof pattern !== 'string') return null;
  const segments = paths.absolute(pattern, paths.absolute(path)).split('/');
  const first = segments.findIndex((segment) => WILDCARD.test(segment));
  return first === -1 ? null : segments.slice(0, first).join('/') || '/';
}

/**
 * A listing, glob or grep whose names the agent prints uncut, below which a name itself holds a
 * credential (`report.pdf?access_token=…`, as wget saves a URL): Custode's own tools and shell
 * output cut it. The reason does not name the file. Null for any other call.
 */
function secretNameAnswer(call: MappedCall, paths: PathOracle): HookAnswer | null {
  const dir = namedDir(call, paths);
  if (dir === null || paths.secretNameBelow(dir) === null) return null;
  return {
    kind: 'ask',
    reason: `the agent would print the names below ${dir} itself, and a name there holds a credential (Custode's own tools cut it from what they show)`,
  };
}

/**
 * A file read whole by the agent (Read, or a Grep of one file) with more text than a decision
 * reads for a credential: Custode's own fs_read and fs_grep cut one from what they show, the
 * agent's reader shows it all. Null for any other call.
 */
function wholeFileAnswer(call: MappedCall, paths: PathOracle): HookAnswer | null {
  const { path } = call.args;
  if ((call.executor !== 'fs_read' && call.executor !== 'fs_grep') || typeof path !== 'string')
    return null;
  const file = paths.absolute(path);
  return paths.textTooLarge(file)
    ? {
        kind: 'ask',
        reason: `the agent would read ${file} whole, more text than Custode reads for a credential when it decides (Custode's own readers cut one from what they show)`,
      }
    : null;
}

/**
 * Custode lets a grep or glob of a tree through because its own walker never enters or names a
 * protected place below the root. The agent walks with its own (ripgrep, a glob library), which
 * knows nothing of them: a tree with one below it asks. A tree too large to look at in time is
 * left to the agent's own permissions, as before.
 */
function walkAnswer(answer: HookAnswer, call: MappedCall, paths: PathOracle): HookAnswer {
  if (answer.kind === 'no-decision' && call.executor === 'shell_exec')
    return shellAnswer(answer, call, paths);
  const whole =
    answer.kind === 'no-decision'
      ? (wholeFileAnswer(call, paths) ?? secretNameAnswer(call, paths))
      : null;
  if (whole !== null) return whole;
  const walk = answer.kind === 'no-decision' ? walkOf(call, paths) : null;
  if (walk === null) return answer;
  if ('glob' in walk) {
    const named = paths.globObstacle(walk.glob);
    if (named === null) return answer;
    const what =
      named.kind === 'protected'
        ? `in ${named.protection.name}`
        : 'a directory Custode could not list in time';
    return {
      kind: 'ask',
      reason: `the agent would list ${walk.glob} itself, and ${named.path} is ${what}`,
    };
  }
  const obstacle = paths.treeObstacle(walk.root);
  if (obstacle === null || obstacle.kind === 'too-large' || obstacle.kind === 'unreadable')
    return answer;
  if (!walk.stops.includes(obstacle.kind)) return answer;
  return {
    kind: 'ask',
    reason: `the agent would search ${walk.root} itself, and ${obstacle.path} below it is ${obstacle.kind === 'credential' ? '' : 'in '}${obstacle.protection.name} (Custode's own search leaves it out)`,
  };
}

/**
 * A shell line Custode would run without a card, as the agent would run it on the host: it prints
 * the agent's environment, reaches a host daemon, starts git's configured programs or prints its
 * stored credentials, or lists a tree holding a protected place. The line is parsed once.
 */
function shellAnswer(answer: HookAnswer, call: MappedCall, paths: PathOracle): HookAnswer {
  const { command, cwd } = call.args;
  if (typeof command !== 'string') return answer;
  const parsed = parseShell(command);
  const unsandboxed = environmentAnswer(parsed) ?? serviceAnswer(parsed) ?? hostTextAnswer(parsed);
  if (unsandboxed !== null || typeof cwd !== 'string') return unsandboxed ?? answer;
  return gitAnswer(parsed, cwd, paths) ?? namesAnswer(answer, parsed, cwd, paths);
}

/**
 * `env` with no command, and `printenv` with or without names, print the environment. Custode's
 * commands see a reduced one (no key or token: executors/shell-exec.ts commandEnv); the agent's
 * shell holds the agent's own, API keys included. Null when the line prints none.
 */
function environmentAnswer(parsed: ParsedShell): HookAnswer | null {
  const prints = parsed.commands.some((each) => {
    const program = each.binary === null ? null : basename(each.binary);
    return (
      program === 'printenv' ||
      (program === 'env' && each.args.every((word) => word.text.startsWith('-')))
    );
  });
  return prints
    ? {
        kind: 'ask',
        reason:
          "the agent would print its own environment (its keys and tokens), not the reduced one Custode's commands see",
      }
    : null;
}

/**
 * A client of a host daemon (docker, kubectl, systemctl: constitution/programs.ts): Custode lets
 * it through only because its sandbox hides the daemon's socket and login, so its own run fails.
 * The agent's shell reaches the daemon. Null when the line runs none.
 */
function serviceAnswer(parsed: ParsedShell): HookAnswer | null {
  const client = parsed.commands
    .map((each) => (each.binary === null ? '' : basename(each.binary)))
    .find((binary) => HOST_SERVICE_CLIENTS.has(binary));
  return client === undefined
    ? null
    : {
        kind: 'ask',
        reason: `the agent's ${client} would reach the host's daemon with the user's rights and print what it holds (a container's or unit's environment, logs); Custode's sandbox hides the daemon's socket and login, so its own run reaches nothing`,
      };
}

/**
 * The system's logs or other programs' command lines (constitution/unread-text.ts): text no
 * decision read, which Custode shows only through its output check (a credential cut by its
 * shape). The agent's shell prints it raw. Null when the line prints none.
 */
function hostTextAnswer(parsed: ParsedShell): HookAnswer | null {
  const source = parsed.commands.find(printsUnreadText);
  return source === undefined
    ? null
    : {
        kind: 'ask',
        reason: `the agent's ${source.binary ?? 'command'} would print the system's logs or other programs' command lines raw (a logged token, a password on a command line); Custode cuts credentials from what its own run prints`,
      };
}

/**
 * Git that would start its repository's fsmonitor or hooks on the host (git-on-host.ts), or print
 * a credential its repository stores (git-history.ts).
 */
function gitAnswer(parsed: ParsedShell, cwd: string, paths: PathOracle): HookAnswer | null {
  const why = gitOnHost(parsed, cwd, paths) ?? gitHistoryOnHost(parsed, cwd, paths);
  return why === null ? null : { kind: 'ask', reason: why };
}

/**
 * A shell line Custode runs without a card may list the names below a tree (`find ~`, `du -a`):
 * its sandbox hides every protected store, the agent's shell does not. A tree with one below it,
 * or one named only at run time (`find $HOME`), asks.
 */
function namesAnswer(
  answer: HookAnswer,
  parsed: ParsedShell,
  cwd: string,
  paths: PathOracle,
): HookAnswer {
  for (const tree of listedTrees(parsed)) {
    if (tree === null)
      return {
        kind: 'ask',
        reason:
          'the agent would list the names below a directory known only at run time, without the sandbox that hides protected places',
      };
    const root = paths.absolute(tree, cwd);
    const obstacle = paths.treeObstacle(root);
    if (obstacle?.kind === 'protected')
      return {
        kind: 'ask',
        reason: `the agent would list the names below ${root} itself, and ${obstacle.path} is in ${obstacle.protection.name} (Custode's sandbox hides it)`,
      };
    if (paths.secretNameBelow(root) !== null)
      return {
        kind: 'ask',
        reason: `the agent would list the names below ${root} itself, and a name there holds a credential (Custode cuts it from what its commands print)`,
      };
  }
  return secretNameInListing(parsed, cwd, paths) ?? answer;
}

/**
 * A directory an `ls` lists or a glob the shell expands, one of whose names holds a credential
 * (`ls ~/Downloads` printing `report.pdf?access_token=…`): the agent prints it uncut. A word known
 * only at run time is left to the rest of the gate (a glob of it lists what its text says).
 */
function secretNameInListing(
  parsed: ParsedShell,
  cwd: string,
  paths: PathOracle,
): HookAnswer | null {
  for (const pattern of listedNames(parsed)) {
    if (pattern === null) continue;
    const absolute = paths.absolute(pattern, cwd);
    const names = paths.globMatches(absolute) ?? [];
    if (names.some((path) => ANY_CREDENTIAL.test(basename(path))))
      return {
        kind: 'ask',
        reason: `the agent would print the names ${absolute} matches itself, and one of them holds a credential (Custode cuts it from what its commands print)`,
      };
  }
  return null;
}

/**
 * The path the kernel opens for `path`, which the agent passes as it is: a `..` after a symbolic
 * link climbs from where the link leads (`proj/dl/../x` is `~/dotfiles/x` when `proj/dl` leads
 * to `~/dotfiles/sub`), where Custode's own tools read the path lexically.
 */
function kernelPath(path: string, paths: PathOracle): string {
  let current = '/';
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    current = segment === '..' ? dirname(paths.real(current)) : join(current, segment);
  }
  return current;
}

/** The call again with the path the kernel would open, when a `..` makes it another; else null. */
function asTheKernelOpensIt(call: MappedCall, paths: PathOracle): MappedCall | null {
  const path = call.args.path;
  if (typeof path !== 'string' || !path.split('/').includes('..')) return null;
  const expanded = path === '~' || path.startsWith('~/') ? paths.home + path.slice(1) : path;
  if (!expanded.startsWith('/')) return null;
  const opened = kernelPath(expanded, paths);
  return opened === paths.absolute(path) ? null : { ...call, args: { ...call.args, path: opened } };
}

function payloadProblem(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
    .join('; ');
}

/**
 * The agent's project is where it writes: its working directory joins roots.write for its calls
 * (the guard's protected places stay forbidden inside it). `/` is never a root.
 */
function configFor(config: Config, cwd: string): Config {
  if (cwd === '/' || config.roots.write.includes(cwd)) return config;
  return { ...config, roots: { ...config.roots, write: [...config.roots.write, cwd] } };
}

/** A gate that builds one pipeline per working directory, lazily, and keeps the latest few. */
export function createHookGate(options: HookGateOptions): HookGate {
  const pipelines = new Map<string, Promise<GatePipeline>>();

  function pipelineFor(cwd: string): Promise<GatePipeline> {
    const ready = pipelines.get(cwd);
    if (ready !== undefined) return ready;
    const created = createPipeline({
      config: configFor(options.config, cwd),
      env: options.env,
      origin: `hook:${options.agent}`,
    });
    pipelines.set(cwd, created);
    // A failed build is not kept: the next call tries again.
    created.catch(() => pipelines.delete(cwd));
    const [oldest] = pipelines.keys();
    if (pipelines.size > keptPipelines && oldest !== undefined) {
      void pipelines.get(oldest)?.then(
        (pipeline) => pipeline.close(),
        () => undefined,
      );
      pipelines.delete(oldest);
    }
    return created;
  }

  async function decide(text: string): Promise<HookAnswer> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { kind: 'fail', reason: 'Custode: the hook input is not JSON; blocked (fail closed)' };
    }
    const payload = payloadSchema.safeParse(raw);
    if (!payload.success) {
      return {
        kind: 'fail',
        reason: `Custode: not a PreToolUse payload (${payloadProblem(payload.error)}); blocked (fail closed)`,
      };
    }
    const { tool_name: tool, tool_input: input, cwd } = payload.data;
    const mapped = mapToolCall(tool, input, cwd);
    if (mapped.kind === 'unmapped') {
      const token = sentToken(input);
      if (token !== null)
        return {
          kind: 'ask',
          reason: `Custode: data leaves the machine: what ${tool} sends holds a secret-shaped token (${token})`,
        };
      const opened = foreignToolCalls(tool, input, cwd);
      if (opened.length === 0)
        return { kind: 'no-decision', reason: `Custode has no executor for ${tool}` };
      return judged(tool, opened, await pipelineFor(cwd));
    }
    if (mapped.kind === 'malformed') {
      return { kind: 'fail', reason: `Custode: ${mapped.reason}; blocked (fail closed)` };
    }
    return judged(tool, mapped.calls, await pipelineFor(cwd));
  }

  /** The strictest answer over the Custode calls a tool call stands for. */
  async function judged(
    tool: string,
    mappedCalls: readonly MappedCall[],
    pipeline: GatePipeline,
  ): Promise<HookAnswer> {
    let strictest: HookAnswer | undefined;
    // One question: its decisions and the checks below share what they read of the disk (a
    // repository's config is read once, not by each of them).
    const question = pipeline.together();
    // A path with `..` is judged as written and as the kernel opens it: the strictest wins.
    const expanded = mappedCalls.flatMap((call) => {
      const opened = asTheKernelOpensIt(call, question.paths);
      return opened === null ? [call] : [call, opened];
    });
    const calls = [...new Map(expanded.map((call) => [JSON.stringify(call), call])).values()];
    const tooMuch = {
      kind: 'ask',
      reason: `${tool} names more than can be judged in time (${String(calls.length)} checks); a person decides`,
    } as const;
    if (calls.length > maxJudgedCalls) return tooMuch;
    const deadline = Date.now() + judgeBudgetMs;
    for (const call of calls) {
      // Out of time: what was already refused stays refused, anything less asks.
      if (Date.now() > deadline) {
        return strictest !== undefined && STRICTNESS[strictest.kind] > STRICTNESS.ask
          ? strictest
          : tooMuch;
      }
      const outcome = await question.evaluate({
        intent: `${options.agent} ${tool}`,
        executor: call.executor,
        args: call.args,
        context: { mode: 'check' },
      });
      // Only a call that fetches has its host judged here (from what the machine knows alone,
      // addressAnswer): a name that is only text (`echo https://<data>.example`) is no fetch.
      const fetches =
        call.executor === 'web_fetch' ||
        (outcome.decision === 'allow' &&
          outcome.grant.by === 'tier' &&
          outcome.grant.tier === 'fetch');
      const answer = walkAnswer(answerFor(outcome), call, question.paths);
      const checked = fetches ? await addressAnswer(answer, call, options.config) : answer;
      if (strictest === undefined || STRICTNESS[checked.kind] > STRICTNESS[strictest.kind])
        strictest = checked;
    }
    return (
      strictest ?? { kind: 'no-decision', reason: `Custode found nothing to judge in ${tool}` }
    );
  }

  return {
    async answer(text) {
      try {
        return await decide(text);
      } catch (error) {
        const err = error instanceof Error ? error : new Error(String(error));
        return {
          kind: 'fail',
          reason: `Custode failed (${err.name}: ${err.message}); blocked (fail closed)`,
        };
      }
    },
    async close() {
      const all = await Promise.allSettled(pipelines.values());
      pipelines.clear();
      for (const result of all) if (result.status === 'fulfilled') result.value.close();
    },
  };
}
