// The workspace catalogue applied to a parsed command line. A call matches only when EVERY
// command is either read-only (the read-only catalogue, its writing redirections set aside) or
// a workspace rule, with the same conditions on words as the read-only catalogue: literal
// words, no substitution, no function, only quiet wrappers (nice, timeout). What it reads and
// writes is collected for the policy, which checks every path (policy.ts).
import type { ParsedShell, ShellCommand } from '../../shell/types.ts';
import { ConfigError } from '../../errors.ts';
import { parseShell } from '../../shell/parse.ts';
import {
  isPlainGlob,
  judgeableArgument,
  judgeableLine,
  matchReadOnly,
  onlyQuietWrappers,
  type PathCheck,
  type ReadOnlyCatalogue,
} from '../read-only.ts';
import { BUILT_IN_WORKSPACE } from './catalogue.ts';
import { SCRIPT_BINARY } from './runners.ts';
import { interpreterKey } from './inline-code.ts';
import { interpreterFamily } from '../../../constitution/programs.ts';
import {
  type Staging,
  effects,
  type IsDirectory,
  type WorkspaceEffects,
  type WorkspaceRuleSpec,
  type WorkspaceTarget,
} from './spec.ts';

/** The loaded workspace rules, by binary. */
export interface WorkspaceCatalogue {
  readonly rules: ReadonlyMap<string, readonly WorkspaceRuleSpec[]>;
}

/** Everything a matched command line reads, writes and runs, and the rules that matched. */
export interface WorkspaceMatch extends WorkspaceEffects {
  readonly rule: string;
  /**
   * Files a rule puts in place with content from elsewhere (a move's or copy's destination, an
   * unpacked member): what is there when a later read runs is not what the decision saw.
   */
  readonly placed: readonly string[];
}

/** What the matcher asks of the file system and of the read-only scope. */
export interface MatchChecks {
  /** A path a command only reads passes the guard and the read scope. */
  readonly readOk: PathCheck;
  readonly isDirectory: IsDirectory;
}

const CREATE_REDIRECTS: ReadonlySet<string> = new Set(['>', '>|', '&>']);
const APPEND_REDIRECTS: ReadonlySet<string> = new Set(['>>', '&>>']);
/**
 * True when a path holds a glob character: a deletion in /tmp, or a name judged by the names in
 * its directory (a move, or a file made new whatever the pattern becomes: targets.ts).
 */
export function hasGlob(path: string): boolean {
  return /[*?[]/.test(path);
}

function redirectEffects(command: ShellCommand): WorkspaceMatch | null {
  const reads: string[] = [];
  const targets: WorkspaceTarget[] = [];
  for (const redirect of command.redirects) {
    const target = redirect.target;
    // A pattern (`> notes/$(date +%F).md`) only where it makes or adds to a file: targets.ts
    // judges it by the names in its directory.
    const made =
      target !== null &&
      isPlainGlob(target) &&
      (CREATE_REDIRECTS.has(redirect.op) || APPEND_REDIRECTS.has(redirect.op));
    if (target !== null && !target.literal && !made) return null;
    if (!redirect.writes) {
      if (redirect.op === '<' && target !== null) reads.push(target.text);
      continue;
    }
    if (target === null) return null;
    if (CREATE_REDIRECTS.has(redirect.op)) targets.push({ path: target.text, mode: 'create' });
    else if (APPEND_REDIRECTS.has(redirect.op)) targets.push({ path: target.text, mode: 'append' });
    else return null;
  }
  return { ...effects({ reads, targets }), rule: '', placed: [] };
}

function matchCommand(
  parsed: ParsedShell,
  command: ShellCommand,
  readOnly: ReadOnlyCatalogue | null,
  workspace: WorkspaceCatalogue,
  checks: MatchChecks,
): WorkspaceMatch | null {
  const { name, binary } = command;
  if (command.origin !== 'top' || command.declaration || command.assignments.length > 0)
    return null;
  if (name === null || binary === null || !name.literal) return null;
  // A bare name, or a script file of the project named from the working directory (./build.sh).
  const script = name.text.startsWith('./');
  if (name.text !== binary && !script) return null;
  if (!onlyQuietWrappers(command) || !command.args.every(judgeableArgument)) return null;
  const redirected = redirectEffects(command);
  if (redirected === null) return null;
  // Read-only apart from its redirections: `sort -u names.txt > names.sorted`.
  const alone = { ...command, redirects: command.redirects.filter((r) => !r.writes) };
  const read = readOnly && matchReadOnly({ ...parsed, commands: [alone] }, readOnly, checks.readOk);
  if (read) return { ...redirected, rule: read.rule };
  const words = command.args.map((word) => word.text);
  const key = script ? SCRIPT_BINARY : binary;
  // An interpreter's inline code is read by its family's rules, whatever version it names.
  const family = script ? null : interpreterFamily(binary);
  const rules = [
    ...(workspace.rules.get(key) ?? []),
    ...(family === null ? [] : (workspace.rules.get(interpreterKey(family)) ?? [])),
  ];
  for (const rule of rules) {
    const found = rule.effects(script ? [name.text, ...words] : words, checks.isDirectory);
    if (found === null) continue;
    return {
      ...found,
      rule: rule.name,
      reads: [...redirected.reads, ...found.reads],
      targets: [...redirected.targets, ...found.targets],
      placed: found.targets.filter((target) => target.mode === 'create').map((t) => t.path),
    };
  }
  return null;
}

/**
 * What the whole command line reads and writes when every command is read-only or a workspace
 * rule, else null (the policy then asks). Reads are checked here; targets are the policy's.
 */
export function matchWorkspace(
  parsed: ParsedShell,
  readOnly: ReadOnlyCatalogue | null,
  workspace: WorkspaceCatalogue,
  checks: MatchChecks,
): WorkspaceMatch | null {
  if (!judgeableLine(parsed)) return null;
  const names: string[] = [];
  const reads: string[] = [];
  const trees: string[] = [];
  const databases: string[] = [];
  const targets: WorkspaceTarget[] = [];
  const placed: string[] = [];
  let repository = false;
  let leavesCommits = false;
  const stages: Staging[] = [];
  let runs = false;
  let wetRun = false;
  let readOnlyCode = false;
  for (const command of parsed.commands) {
    const found = matchCommand(parsed, command, readOnly, workspace, checks);
    if (found === null) return null;
    if (!names.includes(found.rule)) names.push(found.rule);
    reads.push(...found.reads);
    trees.push(...found.trees);
    databases.push(...found.databases);
    targets.push(...found.targets);
    placed.push(...found.placed);
    repository ||= found.repository;
    leavesCommits ||= found.leavesCommits;
    stages.push(...found.stages);
    runs ||= found.runs;
    wetRun ||= found.runs && !found.dryRun;
    readOnlyCode ||= found.readOnlyCode;
  }
  const readOk = (path: string): boolean =>
    checks.readOk(path, {
      glob: hasGlob(path),
      deviceMetadata: false,
      ...(trees.includes(path) ? { tree: true } : {}),
      ...(databases.includes(path) ? { database: true } : {}),
    });
  if (!reads.every(readOk)) return null;
  return {
    rule: names.join(', '),
    reads,
    trees,
    databases,
    targets,
    placed,
    repository,
    leavesCommits,
    stages,
    runs,
    dryRun: runs && !wetRun,
    readOnlyCode,
  };
}

function checkExamples(rule: WorkspaceRuleSpec): void {
  const alone: WorkspaceCatalogue = { rules: new Map([[rule.binary, [rule]]]) };
  // Examples name a directory with a trailing slash: they never look at the file system.
  const checks: MatchChecks = { readOk: () => true, isDirectory: (path) => path.endsWith('/') };
  const fail = (example: string, problem: string): never => {
    throw new ConfigError(
      `built-in workspace catalogue: rule "${rule.name}": example ${JSON.stringify(example)} ${problem}. Fix: correct the rule or the example.`,
    );
  };
  for (const example of rule.examples.match) {
    if (matchWorkspace(parseShell(example), null, alone, checks) === null)
      fail(example, 'should match but does not');
  }
  for (const example of rule.examples.no_match) {
    if (matchWorkspace(parseShell(example), null, alone, checks) !== null)
      fail(example, 'should not match but does');
  }
}

/**
 * Check workspace rules against their examples (a drifted one is a ConfigError naming the rule and
 * the example). The rules are built in and cannot change at run time: the tests check them, not
 * every start. Needs initShellParser().
 */
export function checkWorkspaceExamples(
  rules: readonly WorkspaceRuleSpec[] = BUILT_IN_WORKSPACE,
): void {
  for (const rule of rules) checkExamples(rule);
}

/** The workspace rules (built-in by default), by binary. */
export function loadWorkspaceCatalogue(
  rules: readonly WorkspaceRuleSpec[] = BUILT_IN_WORKSPACE,
): WorkspaceCatalogue {
  const byBinary = new Map<string, WorkspaceRuleSpec[]>();
  for (const rule of rules) byBinary.set(rule.binary, [...(byBinary.get(rule.binary) ?? []), rule]);
  return { rules: byBinary };
}
