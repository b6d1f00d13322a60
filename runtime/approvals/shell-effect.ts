// The effect of a shell call: the command itself is the headline (with where it runs), the
// network it needs (read off its parse by constitution/network-use.ts), the command whole.
import { networkUse, type RemoteHost } from '../../constitution/network-use.ts';
import { gitRemoteHost } from '../../constitution/network-words.ts';
import { resolvePath } from '../../executors/resolve-path.ts';
import { parseShell } from '../shell/parse.ts';
import { displayPath, stringArg } from './describe-call.ts';
import type { Effect } from './effect.ts';
import { headAndTail, middleCut, shorten } from './excerpt.ts';
import type { GitRemotes } from './target-facts.ts';
import { visibleLine } from './visible-text.ts';

/** A headline fits a phone's notification and Slack's 150-character header. */
const HEADLINE_COMMAND_MAX = 110;
/** A command on a card is shown whole up to this, then by its head and its tail. */
const COMMAND_MAX = 1500;
/** Where it runs, on the headline and in the detail. */
const PATH_MAX = 60;
const CWD_DETAIL_MAX = 300;
/** A line of a hundred URLs names its hosts in a bounded line. */
const HOSTS_MAX = 300;

/** The host of each remote, for networkUse: by name, or the default remote for none. */
function remoteHosts(remotes: GitRemotes): RemoteHost {
  return (name) => {
    const url = remotes.urls.get(name ?? remotes.defaultRemote ?? '');
    const host = url === undefined ? 'named' : gitRemoteHost(url);
    return host === 'named' || host === 'local' ? null : host;
  };
}

/** "Needs the network: github.com", "Needs the network (hosts unknown)", or null. */
export function networkLine(command: string, remotes: GitRemotes): string | null {
  let use;
  try {
    use = networkUse(parseShell(command), remoteHosts(remotes));
  } catch {
    return 'Needs the network? The command could not be read to tell';
  }
  if (!use.needed) return null;
  return use.hosts === null
    ? 'Needs the network (hosts unknown)'
    : `Needs the network: ${middleCut(use.hosts.join(', '), HOSTS_MAX)}`;
}

/** The $1... values a call passes to its command. */
function positional(args: unknown): unknown[] {
  if (args === null || typeof args !== 'object' || !Object.hasOwn(args, 'args')) return [];
  const value = (args as { args: unknown }).args;
  return Array.isArray(value) ? value : [];
}

/** The effect of running `command` (with the call's cwd and $1...) where `remotes` are. */
export function shellEffect(
  command: string,
  args: unknown,
  env: NodeJS.ProcessEnv,
  remotes: GitRemotes,
): Effect {
  const home = resolvePath('~', env);
  const cwd = stringArg(args, 'cwd');
  const where =
    cwd === undefined ? '' : ` in ${middleCut(displayPath(resolvePath(cwd, env), home), PATH_MAX)}`;
  const line = middleCut(visibleLine(command.trim()), HEADLINE_COMMAND_MAX);
  const extra = positional(args);
  const network = networkLine(command, remotes);
  return {
    verb: 'Run',
    target: line,
    headline: `Run ${line}${where}`,
    reversible: false,
    undo: 'Cannot be undone: a command can change anything it reaches',
    detail: [
      headAndTail(command.trim(), COMMAND_MAX),
      ...(cwd === undefined ? [] : [`in ${middleCut(cwd, CWD_DETAIL_MAX)}`]),
      ...(extra.length === 0 ? [] : [`with $1... = ${shorten(JSON.stringify(extra), 200)}`]),
    ].join('\n'),
    ...(network === null ? {} : { network }),
  };
}
