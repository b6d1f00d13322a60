// tree-sitter-bash -> ParsedShell: every simple command anywhere in the text (lists, pipelines,
// groups, substitutions, function bodies, bash -c / eval payloads), with resolved words,
// redirects, assignments and where it came from. One parse per call; the wasm loads once.
import { andChainOf, sequenceOf } from './and-chain.ts';
import { forLoopOf } from './for-loop.ts';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';
import type {
  ForLoop,
  CommandOrigin,
  ParsedShell,
  ShellCommand,
  ShellRedirect,
  ShellWord,
} from './types.ts';
import { SHELLS } from '../../constitution/command-effects.ts';
import { heredocHidesCode, readsOtherwise, joinContinuations } from './bash-reading.ts';
import { dropsText } from './coverage.ts';
import { interpreterShellStrings } from './interpreter.ts';
import { evaluatesSubscript } from './name-operands.ts';
import { binaryOf, peelWrappers, shellPayload } from './unwrap.ts';
import { literalWord, resolveWord, resolveWords } from './words.ts';
import { echoedText, scriptRun, writtenText } from './written-files.ts';

/** The parse's types, re-exported so callers need one import. */
export type { ParsedShell, ShellCommand, ShellRedirect, ShellWord } from './types.ts';

// bash -c "bash -c '...'" nests; past this depth the text is judged as unparsable.
const MAX_DEPTH = 4;
// A bound on work per call: a generated script with hundreds of commands is not judged piecemeal.
// Some checks grow faster than the line (each command's working directory follows every cd
// before it), and an agent's hook that answers after its timeout (Claude Code: 60 s) fails open:
// 2,000 cd's took 45 s to judge, 500 take about 1 s.
const MAX_COMMANDS = 500;
// Rounds of joining line continuations and parsing again before the text is judged unparsable.
const MAX_JOIN_ROUNDS = 4;
// Targets that a redirect may write without touching a file.
const HARMLESS_TARGETS = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;
const DECLARATIONS: ReadonlySet<string> = new Set([
  'export',
  'local',
  'declare',
  'readonly',
  'typeset',
]);

let ready: Promise<Parser> | null = null;
let parser: Parser | null = null;

/** Load the bash grammar once; every later call returns the same promise. */
export function initShellParser(): Promise<void> {
  ready ??= (async () => {
    try {
      // Liftoff (V8's baseline wasm compiler) only. Otherwise V8 recompiles the grammar's lexer
      // (one 160 KB function) with TurboFan on a background thread once it is warm: seconds of a
      // core in a long-running process, and a process that exits meanwhile (`custode serve` on
      // SIGTERM) waits for that compile to end. Liftoff code parses a command line in tens of µs.
      // The quick bundle's loader sets the same flag before its code cache is read.
      setFlagsFromString('--liftoff-only');
      const { resolve } = createRequire(import.meta.url);
      // Named from node_modules, not next to web-tree-sitter's code: the quick bundle holds that code.
      await Parser.init({ locateFile: () => resolve('web-tree-sitter/web-tree-sitter.wasm') });
      const wasm = resolve('tree-sitter-bash/tree-sitter-bash.wasm');
      const language = await Language.load(wasm);
      const instance = new Parser();
      instance.setLanguage(language);
      parser = instance;
      return instance;
    } catch (error) {
      // A later call may try again (the files may be installed by then).
      ready = null;
      throw new Error(
        'Cannot load the bash grammar (web-tree-sitter, tree-sitter-bash). Fix: run npm install in the Custode directory.',
        { cause: error },
      );
    }
  })();
  return ready.then(() => undefined);
}

interface Context {
  readonly origin: CommandOrigin;
  readonly parent: number | null;
  readonly pipeline: {
    readonly id: number;
    readonly stage: number;
    readonly length: number;
  } | null;
  readonly background: boolean;
  readonly scope: readonly number[];
  readonly fn: string | null;
  readonly depth: number;
  /** Redirects of an enclosing group (`{ a; b; } > f`) that apply to every command inside. */
  readonly redirects: readonly ShellRedirect[];
  /** The innermost enclosing while/until/for(( )) loop's header (see ShellCommand.loop). */
  readonly loop: string | null;
}

interface State {
  readonly commands: ShellCommand[];
  readonly variables: Map<string, string[]>;
  readonly loopVariables: Set<string>;
  readonly functions: Set<string>;
  hasSubstitution: boolean;
  errors: boolean;
  nextPipeline: number;
  nextScope: number;
  /** Redirections tree-sitter hung on a list or pipeline, and the command they belong to. */
  readonly trailing: { readonly command: Node; readonly redirects: Node[] }[];
  andChain: string[] | null;
  forLoop: ForLoop | null;
  /** Text written into files so far (see ParsedShell.written). */
  readonly written: Map<string, string>;
}

function named(node: Node): Node[] {
  return node.namedChildren.filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/**
 * Records a literal value of a variable. A loop's list also records its globs as written
 * (`for f in ~/*` gives f the value `~/*`): each value the loop takes is one of its matches, so
 * what the body does to `$f` it does to every match, and the rules that refuse read it so.
 */
function recordVariable(state: State, name: string, value: ShellWord, globs = false): void {
  const text = value.literal ? value.text : globs && value.glob ? globText(value) : null;
  if (text === null) return;
  const values = state.variables.get(name) ?? [];
  if (!values.includes(text)) values.push(text);
  state.variables.set(name, values);
}

/** A glob as written, `$HOME` standing as `~` (`"$HOME"/*` is `~/*`); null with any other expansion. */
function globText(word: ShellWord): string | null {
  let text = '';
  for (const [i, part] of word.parts.entries()) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'var' && part.name === 'HOME' && i === 0) text += '~';
    else return null;
  }
  return text;
}

interface RedirectReading {
  /** This redirection, then any that tree-sitter-bash hung inside it (`cat <<EOF > f`). */
  readonly redirects: readonly ShellRedirect[];
  readonly stdin: string | null;
  /** Words after the target: tree-sitter-bash hangs them on the redirect; bash gives them to the command. */
  readonly words: readonly ShellWord[];
}

// Node types that are one shell word (what may follow a redirection's target on the same line).
const WORD_NODES: ReadonlySet<string> = new Set([
  'word',
  'number',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
]);

/** What tree-sitter-bash hangs on a here-document besides its body: words and redirections. */
function heredocExtras(node: Node): { words: Node[]; redirects: Node[] } {
  const children = named(node);
  return {
    words: children.filter((c) => WORD_NODES.has(c.type)),
    redirects: children.filter((c) => c.type.endsWith('_redirect')),
  };
}

function heredocOf(node: Node): RedirectReading {
  const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
  const op = node.children.find((c) => c !== null && !c.isNamed)?.text ?? '<<';
  const extras = heredocExtras(node);
  const inner = extras.redirects.map(redirectOf);
  return {
    redirects: [{ op, target: null, writes: false }, ...inner.flatMap((r) => r.redirects)],
    stdin: body?.text ?? '',
    words: [...extras.words.map(resolveWord), ...inner.flatMap((r) => r.words)],
  };
}

function redirectOf(node: Node): RedirectReading {
  if (node.type === 'heredoc_redirect') return heredocOf(node);
  const given = node.childrenForFieldName('destination');
  const [target = null, ...words] = touchingWords(
    given.length > 0 ? given : named(node).filter((c) => c.type !== 'file_descriptor'),
  );
  const op = node.children.find((c) => c !== null && !c.isNamed)?.text ?? '>';
  if (node.type === 'herestring_redirect')
    return { redirects: [{ op: '<<<', target, writes: false }], stdin: target?.text ?? '', words };
  const duplicatesFd =
    (op === '>&' || op === '<&') && target !== null && /^(?:\d+|-)$/.test(target.text);
  const writes =
    op.includes('>') &&
    !duplicatesFd &&
    !(target !== null && target.literal && HARMLESS_TARGETS.test(target.text));
  return { redirects: [{ op, target, writes }], stdin: null, words };
}

// What bash takes for an assignment: a name (or name[subscript]) before `=` or `+=`.
const ASSIGNED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\[.*\])?$/s;

/** `9=x` or `a-b=x` is a word (a command name) to bash; the grammar makes it an assignment. */
function assignsVariable(node: Node, wordsBefore: number): boolean {
  return wordsBefore === 0 && ASSIGNED_NAME.test(node.childForFieldName('name')?.text ?? '');
}

/** The pieces of a command; a `command` keeps its anonymous tokens (the grammar leaves `\\$` there). */
function commandParts(node: Node): Node[] {
  if (node.type !== 'command') return named(node);
  return node.children.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/** Nodes with no blank between them are one word to bash, however the grammar splits them. */
function touchingWords(items: readonly (Node | ShellWord)[]): ShellWord[] {
  const words: ShellWord[] = [];
  let group: Node[] = [];
  const flush = (): void => {
    if (group.length > 0) words.push(resolveWords(group));
    group = [];
  };
  for (const item of items) {
    if (!('type' in item)) {
      flush();
      words.push(item);
      continue;
    }
    if (group.length > 0 && group[group.length - 1]?.endIndex !== item.startIndex) flush();
    group.push(item);
  }
  flush();
  return words;
}

function substitutionsIn(node: Node): Node[] {
  if (node.type === 'command_substitution' || node.type === 'process_substitution') return [node];
  return named(node).flatMap(substitutionsIn);
}

function walkSubstitutions(
  state: State,
  nodes: readonly Node[],
  ctx: Context,
  parent: number | null,
): void {
  for (const sub of nodes.flatMap(substitutionsIn))
    walk(state, sub, { ...ctx, parent, redirects: [] });
}

function parsePayload(state: State, text: string, ctx: Context, parent: number): void {
  if (ctx.depth + 1 > MAX_DEPTH) {
    state.errors = true;
    return;
  }
  walkSource(state, text, {
    ...ctx,
    origin: 'payload',
    parent,
    pipeline: null,
    redirects: [],
    depth: ctx.depth + 1,
    scope: child(state, ctx),
  });
}

function pushCommand(
  state: State,
  node: Node | null,
  ctx: Context,
  own: readonly Node[],
  keyword: string | null = null,
): void {
  if (state.commands.length >= MAX_COMMANDS) {
    state.errors = true;
    return;
  }
  const assignments: { name: string; value: ShellWord }[] = [];
  const redirects: ShellRedirect[] = [...ctx.redirects];
  let stdinText: string | null = null;
  const parts = node === null ? own : [...commandParts(node), ...own];
  // `export`/`local` is an anonymous keyword token, not a word node.
  const declared =
    keyword !== null
      ? [literalWord(keyword)]
      : node?.type === 'declaration_command' || node?.type === 'unset_command'
        ? [literalWord(node.firstChild?.text ?? 'declare')]
        : [];
  let nameNodes: Node[] = [];
  const items: (Node | ShellWord)[] = [];
  const assigned: { name: string; nodes: Node[]; end: number }[] = [];
  for (const child of parts) {
    const last = assigned.at(-1);
    if (
      child.type === 'variable_assignment' &&
      assignsVariable(child, items.length + nameNodes.length)
    ) {
      const valueNode = child.childForFieldName('value');
      assigned.push({
        name: child.childForFieldName('name')?.text ?? '',
        nodes: valueNode ? [valueNode] : [],
        end: child.endIndex,
      });
    } else if (last?.end === child.startIndex && !child.type.endsWith('_redirect')) {
      // `x="/etc/sha"\dow`: the grammar ends the value at the quote; bash goes on to the blank.
      last.nodes.push(...(child.type === 'command_name' ? named(child).slice(0, 1) : [child]));
      last.end = child.endIndex;
    } else if (child.type.endsWith('_redirect')) {
      const reading = redirectOf(child);
      redirects.push(...reading.redirects);
      items.push(...reading.words);
      if (reading.stdin !== null) stdinText = reading.stdin;
    } else if (child.type === 'command_name') {
      // After a word the grammar took for an assignment (`9=x cmd`), the name is an argument.
      if (items.length === 0) nameNodes = named(child).slice(0, 1);
      else items.push(...named(child).slice(0, 1));
    } else if (items.length === 0 && nameNodes.at(-1)?.endIndex === child.startIndex) {
      nameNodes.push(child);
    } else {
      items.push(child);
    }
  }
  for (const { name, nodes } of assigned) {
    const value = nodes.length > 0 ? resolveWords(nodes) : literalWord('');
    assignments.push({ name, value });
    recordVariable(state, name, value);
  }
  const words = [
    ...declared,
    ...(nameNodes.length > 0 ? [resolveWords(nameNodes)] : []),
    ...touchingWords(items),
  ];
  const peeled = peelWrappers(words);
  // `coproc NAME { …; }` is a compound command the grammar splits into words and a `}`.
  if (peeled.wrappers.some((w) => w.name === 'coproc')) state.errors = true;
  const [name, ...args] = peeled.words;
  const binary = binaryOf(name);
  if (evaluatesSubscript(binary, args)) state.errors = true;
  const index = state.commands.length;
  const pipeline = ctx.pipeline ?? { id: state.nextPipeline++, stage: 0, length: 1 };
  state.commands.push({
    name: name ?? null,
    binary,
    args,
    redirects,
    assignments,
    origin: ctx.origin,
    wrappers: peeled.wrappers,
    depth: ctx.depth,
    parent: ctx.parent,
    pipeline,
    background: ctx.background,
    scope: ctx.scope,
    fn: ctx.fn,
    declaration: binary !== null && DECLARATIONS.has(binary) && peeled.wrappers.length === 0,
    stdinText,
    loop: ctx.loop,
  });
  walkSubstitutions(state, parts, ctx, index);
  runWrittenScript(state, state.commands[index] as ShellCommand, ctx, index);
  // The other commands a wrapper's run-time word may leave it to run: judged as commands too.
  const main = state.commands[index] as ShellCommand;
  for (const reading of peeled.alternates) {
    const [altName, ...altArgs] = reading.words;
    const altBinary = binaryOf(altName);
    state.commands.push({
      ...main,
      name: altName ?? null,
      binary: altBinary,
      args: altArgs,
      wrappers: reading.wrappers,
      declaration: false,
    });
  }
  const payload = shellPayload(binary, args);
  if (payload !== null) parsePayload(state, payload, ctx, index);
  if (peeled.payload !== null) parsePayload(state, peeled.payload, ctx, index);
  for (const text of interpreterShellStrings(binary, args)) parsePayload(state, text, ctx, index);
  // `bash <<EOF ... EOF` and `sh <<< "..."` run their stdin as shell.
  if (stdinText !== null && binary !== null && SHELLS.has(binary) && payload === null) {
    parsePayload(state, stdinText, ctx, index);
  }
}

/** Record what the command writes into a file; a script the line wrote earlier is parsed where it runs. */
function runWrittenScript(state: State, command: ShellCommand, ctx: Context, index: number): void {
  const script = scriptRun(command);
  const text = script === null ? undefined : state.written.get(script);
  if (text !== undefined) parsePayload(state, text, ctx, index);
  const feeder = state.commands.find(
    (c) => c.pipeline.id === command.pipeline.id && c.pipeline.stage === command.pipeline.stage - 1,
  );
  const written = writtenText(command, feeder === undefined ? null : echoedText(feeder));
  if (written === null) return;
  const before = command.redirects.some((r) => r.op === '>>')
    ? state.written.get(written.file)
    : '';
  state.written.set(written.file, `${before ?? ''}${written.text}\n`);
}

/** `echo 'rm -rf /' | sh`: literal text printed straight into a shell that reads stdin is its script. */
function parseEchoedScripts(
  state: State,
  commands: readonly ShellCommand[],
  id: number,
  ctx: Context,
): void {
  const stages = commands.filter((c) => c.pipeline.id === id);
  for (const shell of stages) {
    if (shell.binary === null || !SHELLS.has(shell.binary) || shell.pipeline.stage === 0) continue;
    if (
      shellPayload(shell.binary, shell.args) !== null ||
      shell.args.some((a) => !a.text.startsWith('-'))
    )
      continue;
    const feeder = stages.find((c) => c.pipeline.stage === shell.pipeline.stage - 1);
    const text = feeder === undefined ? null : echoedText(feeder);
    if (text !== null) parsePayload(state, text, ctx, state.commands.indexOf(shell));
  }
}

/** The words of a compound command, however deep the grammar nests them in expressions. */
function wordNodesIn(node: Node): Node[] {
  return named(node).flatMap((c) => (WORD_NODES.has(c.type) ? [c] : wordNodesIn(c)));
}

/**
 * `[[ … ]]`, `(( … ))` and a C-style for header run code the grammar reads as text: bash
 * evaluates their operands as arithmetic, where `a[$(cmd)]` in any quoting runs cmd. Each is
 * a command named by its keyword (no tier knows one), carrying its words and redirections.
 */
function pushKeywordCommand(
  state: State,
  nodes: readonly Node[],
  ctx: Context,
  keyword: string,
): void {
  pushCommand(
    state,
    null,
    ctx,
    nodes.flatMap((n) => (WORD_NODES.has(n.type) ? [n] : wordNodesIn(n))),
    keyword,
  );
}

function walkRedirected(state: State, node: Node, ctx: Context): void {
  const body = node.childForFieldName('body');
  const redirectNodes = named(node).filter((c) => c.type.endsWith('_redirect'));
  if (redirectNodes.some(heredocHidesCode)) state.errors = true;
  // tree-sitter-bash hangs `cat <<EOF | sh` 's pipeline inside the here-document node.
  const tails = redirectNodes
    .filter((r) => r.type === 'heredoc_redirect')
    .flatMap((r) =>
      named(r).filter(
        (c) =>
          !c.type.startsWith('heredoc_') &&
          !WORD_NODES.has(c.type) &&
          !c.type.endsWith('_redirect'),
      ),
    );
  const tailStages = tails.flatMap((t) => (t.type === 'pipeline' ? named(t) : [t]));
  const headCtx =
    tailStages.length > 0
      ? { ...ctx, pipeline: { id: state.nextPipeline++, stage: 0, length: 1 + tailStages.length } }
      : ctx;
  const last = body === null ? null : lastElement(body);
  if (body === null) {
    pushCommand(state, null, headCtx, redirectNodes);
  } else if (body.type === 'command') {
    pushCommand(state, body, headCtx, redirectNodes);
  } else if (body !== last && last?.type === 'command' && tails.length === 0) {
    // tree-sitter-bash reads `a > x && b > y` as `(a > x && b) > y`; bash gives y to b alone.
    state.trailing.push({ command: last, redirects: redirectNodes });
    walk(state, body, headCtx);
  } else {
    const readings = redirectNodes.map(redirectOf);
    // `{ a; } > f x` is a syntax error to bash; the grammar accepts it.
    if (readings.some((r) => r.words.length > 0)) state.errors = true;
    const redirects = [...ctx.redirects, ...readings.flatMap((r) => r.redirects)];
    const first = state.commands.length;
    walk(state, body, { ...headCtx, redirects });
    // A body that runs no command (`case x in y) ;; esac > f`) still opens its redirections.
    if (state.commands.length === first) pushCommand(state, null, headCtx, redirectNodes);
    walkSubstitutions(state, redirectNodes, ctx, null);
  }
  const head = headCtx.pipeline;
  if (head === null || tailStages.length === 0) return;
  const headCommand = state.commands.find((c) => c.pipeline.id === head.id);
  const firstTail = state.commands.length;
  tailStages.forEach((stage, i) =>
    walk(state, stage, { ...ctx, pipeline: { ...head, stage: i + 1 } }),
  );
  // `cat <<EOF | sh`: the here-document is the shell's script.
  const shellTail = state.commands
    .slice(firstTail)
    .find((c) => c.pipeline.id === head.id && c.binary !== null && SHELLS.has(c.binary));
  if (headCommand?.stdinText != null && shellTail !== undefined) {
    parsePayload(state, headCommand.stdinText, ctx, state.commands.indexOf(shellTail));
  }
}

/** The redirections hung above this command (node ids are unique within one tree only). */
function trailingOf(state: State, node: Node): Node[] {
  const found = state.trailing.find(
    (t) => t.command.id === node.id && t.command.tree === node.tree,
  );
  return found?.redirects ?? [];
}

/**
 * The stages of a pipeline as bash runs them. tree-sitter-bash reads `a | b 2>&1 | c` as
 * `(a | b) 2>&1 | c`; to bash the redirect belongs to b and a, b and c are one pipeline, so
 * that c sees what a printed (`curl x | gunzip 2>&1 | sh`, `cat f | gzip 2>/dev/null | nc h p`).
 */
function pipelineStages(state: State, node: Node): Node[] {
  return named(node).flatMap((stage) => {
    if (stage.type !== 'redirected_statement') return [stage];
    const body = stage.childForFieldName('body');
    const redirects = named(stage).filter((c) => c.type.endsWith('_redirect'));
    const last = body?.type === 'pipeline' ? named(body).at(-1) : undefined;
    if (
      body === null ||
      last?.type !== 'command' ||
      redirects.some((r) => r.type === 'heredoc_redirect')
    )
      return [stage];
    state.trailing.push({ command: last, redirects });
    return pipelineStages(state, body);
  });
}

/** The command a trailing redirection of a list or pipeline belongs to: its last element. */
function lastElement(node: Node): Node {
  let current = node;
  while (current.type === 'list' || current.type === 'pipeline') {
    const children = named(current);
    const last = children[children.length - 1];
    if (last === undefined) return current;
    current = last;
  }
  return current;
}

/** A new child-shell scope inside the current one. */
function child(state: State, ctx: Context): readonly number[] {
  return [...ctx.scope, state.nextScope++];
}

/** A while/until or C-style for loop: its commands carry the loop's header. */
function walkLoop(state: State, node: Node, ctx: Context): void {
  const body = node.childForFieldName('body');
  const header = node.text.slice(0, body === null ? undefined : body.startIndex - node.startIndex);
  walkChildren(state, node, { ...ctx, loop: header.replace(/[\s;]+$/, '').replace(/\s+/g, ' ') });
}

function walkChildren(state: State, parent: Node, ctx: Context): void {
  for (const node of named(parent)) {
    const background = ctx.background || node.nextSibling?.type === '&';
    walk(
      state,
      node,
      background === ctx.background ? ctx : { ...ctx, background, scope: child(state, ctx) },
    );
  }
}

function walk(state: State, node: Node, ctx: Context): void {
  switch (node.type) {
    case 'command':
      pushCommand(state, node, ctx, trailingOf(state, node));
      return;
    case 'redirected_statement':
      walkRedirected(state, node, ctx);
      return;
    case 'pipeline': {
      const stages = pipelineStages(state, node);
      const id = state.nextPipeline++;
      const first = state.commands.length;
      // Every stage of a real pipeline runs in its own child shell.
      stages.forEach((stage, i) =>
        walk(state, stage, {
          ...ctx,
          pipeline: { id, stage: i, length: stages.length },
          scope: stages.length > 1 ? child(state, ctx) : ctx.scope,
        }),
      );
      parseEchoedScripts(state, state.commands.slice(first), id, ctx);
      return;
    }
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text ?? '';
      state.functions.add(name);
      const body = node.childForFieldName('body');
      if (body) walk(state, body, { ...ctx, origin: 'function', fn: name, pipeline: null });
      return;
    }
    case 'variable_assignment':
    case 'variable_assignments':
    case 'declaration_command':
    case 'unset_command':
      if (node.type !== 'variable_assignment' && node.type !== 'variable_assignments')
        pushCommand(state, node, ctx, []);
      else
        pushCommand(state, null, ctx, node.type === 'variable_assignment' ? [node] : named(node));
      return;
    case 'for_statement': {
      const variable = node.childForFieldName('variable')?.text ?? '';
      state.loopVariables.add(variable);
      const values = node.childrenForFieldName('value');
      for (const value of touchingWords(values)) recordVariable(state, variable, value, true);
      walkSubstitutions(state, values, ctx, null);
      const body = node.childForFieldName('body');
      if (body) walk(state, body, ctx);
      return;
    }
    case 'test_command':
      pushKeywordCommand(state, [node], ctx, '[[');
      return;
    case 'compound_statement':
      if (node.text.startsWith('((')) pushKeywordCommand(state, [node], ctx, '((');
      else walkChildren(state, node, ctx);
      return;
    case 'c_style_for_statement':
      pushKeywordCommand(
        state,
        named(node).filter((c) => c.id !== node.childForFieldName('body')?.id),
        ctx,
        '((',
      );
      walkLoop(state, node, ctx);
      return;
    case 'while_statement':
      walkLoop(state, node, ctx);
      return;
    case 'command_substitution':
    case 'process_substitution': {
      state.hasSubstitution = true;
      const origin: CommandOrigin =
        node.type === 'process_substitution' ? 'process-substitution' : 'substitution';
      const inner = { ...ctx, origin, pipeline: null, scope: child(state, ctx) };
      // `$(< file)` is bash's `$(cat file)`: a command of redirects alone, which reads the file.
      const parts = named(node);
      if (parts.length > 0 && parts.every((c) => c.type === 'file_redirect'))
        pushCommand(state, null, inner, parts);
      else walkChildren(state, node, inner);
      return;
    }
    case 'subshell':
      walkChildren(state, node, { ...ctx, scope: child(state, ctx) });
      return;
    case 'ERROR':
      state.errors = true;
      walkChildren(state, node, ctx);
      return;
    default:
      if (node.isMissing) state.errors = true;
      walkChildren(state, node, ctx);
  }
}

function walkSource(state: State, source: string, ctx: Context): void {
  if (parser === null)
    throw new Error(
      'parseShell: the shell parser is not ready. Fix: await initShellParser() once at start-up.',
    );
  const read = readAsBash(parser, source);
  if (read === null) {
    state.errors = true;
    return;
  }
  const { tree, text, rewritten } = read;
  try {
    const root = tree.rootNode;
    if (rewritten || root.hasError || dropsText(root, text) || readsOtherwise(root, text))
      state.errors = true;
    if (ctx.depth === 0 && ctx.origin === 'top') {
      state.andChain = andChainOf(root, text);
      state.forLoop = forLoopOf(root, text);
    }
    walk(state, root, ctx);
  } finally {
    tree.delete();
  }
}

// bash's case toggles (`${x~}`, `${x~~}`) and a substring whose offset is an expansion
// (`${x:$n}`) are syntax errors to tree-sitter-bash, which then drops the word. Such a word is read
// with an operator the guard leaves unread (`@P`): its value may be anything the variable's may
// become (`${HOME~}` is the home), and the line stays marked as not read as bash reads it.
const UNREAD_OPERATOR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:~|:\$)[^}]*\}/g;

/** The source with each operator the grammar cannot read made unread (above); null when none. */
function unreadOperators(source: string): string | null {
  const rewritten = source.replace(UNREAD_OPERATOR, (_, name: string) => `\${${name}@P}`);
  return rewritten === source ? null : rewritten;
}

/**
 * The tree of the text bash tokenises: line continuations joined first, operators the grammar
 * cannot read made unread (`rewritten`); null if none parses.
 */
function readAsBash(
  instance: Parser,
  source: string,
): { tree: Tree; text: string; rewritten: boolean } | null {
  const unread = unreadOperators(source);
  const read = readJoined(instance, unread ?? source);
  return read === null ? null : { ...read, rewritten: unread !== null };
}

function readJoined(instance: Parser, source: string): { tree: Tree; text: string } | null {
  let text = source;
  let tree = instance.parse(text);
  // Joining can bring two words together that hold further continuations: parse until none is left.
  for (let round = 0; tree !== null && round < MAX_JOIN_ROUNDS; round += 1) {
    const joined = joinContinuations(tree.rootNode, text);
    if (joined === null) return { tree, text };
    tree.delete();
    text = joined;
    tree = instance.parse(text);
  }
  tree?.delete();
  return null;
}

/**
 * The top-level statements of a line that parses cleanly and runs two or more one after another
 * (`cd app && npm ls; jq . package.json`), each as written; null otherwise (and-chain.ts).
 */
export function topStatements(source: string): string[] | null {
  if (parser === null) return null;
  const read = readAsBash(parser, source);
  if (read === null) return null;
  const { tree, text } = read;
  try {
    return tree.rootNode.hasError ? null : sequenceOf(tree.rootNode, text);
  } finally {
    tree.delete();
  }
}

/** Parse a command line (sync; call initShellParser() first). A syntax error sets `errors`, never throws. */
export function parseShell(source: string): ParsedShell {
  const state: State = {
    commands: [],
    variables: new Map(),
    loopVariables: new Set(),
    functions: new Set(),
    hasSubstitution: false,
    errors: false,
    nextPipeline: 0,
    nextScope: 1,
    trailing: [],
    andChain: null,
    forLoop: null,
    written: new Map(),
  };
  const top: Context = {
    origin: 'top',
    parent: null,
    pipeline: null,
    background: false,
    scope: [],
    fn: null,
    depth: 0,
    redirects: [],
    loop: null,
  };
  walkSource(state, source, top);
  return {
    source,
    errors: state.errors,
    commands: state.commands,
    variables: state.variables,
    loopVariables: state.loopVariables,
    functions: state.functions,
    hasSubstitution: state.hasSubstitution,
    andChain: state.andChain,
    forLoop: state.forLoop,
    written: state.written,
  };
}
