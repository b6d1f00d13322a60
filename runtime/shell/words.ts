// Turn a tree-sitter-bash word node into a ShellWord: quotes removed, escapes resolved, and a
// record of everything the shell would still expand at run time (so "literal" can be trusted).
import type { Node } from 'web-tree-sitter';
import { nameOutputPattern, printsObjectNames } from './name-output.ts';
import type { Derivation, ShellWord, WordPart } from './types.ts';

/** Collects the pieces of one word; `shape` keeps unquoted text only, to spot globs and braces. */
interface WordBuilder {
  parts: WordPart[];
  shape: string;
  dynamic: boolean;
  /** The grammar's word is not what bash reads (an unquoted newline inside it). */
  inexact: boolean;
}

// Inside "...", a backslash only escapes these characters (bash manual, Double Quotes).
const DOUBLE_QUOTE_ESCAPES = /\\([$`"\\\n])/g;
const GLOB_CHARS = /[*?[]/;
// Brace expansion needs an unquoted {x,y} or {a..b}.
const BRACE = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;
const RUN_TIME: WordPart = { kind: 'dynamic', output: null };
// The mark a `$"…"` leaves before its string: bash prints the string as it is (C locale, no
// message catalogue, the usual case), but a catalogue may replace it, so the word is not literal;
// its reading (the guard's) is the string.
const TRANSLATION: WordPart = { kind: 'dynamic', output: '' };
// A placeholder in the shape for characters that cannot expand (quoted or escaped).
const INERT = '\0';
// `name=` at the start of an argument: bash expands `~` after its `=` and after each `:` (bash manual, Tilde Expansion).
const ASSIGNMENT_LIKE = /^[A-Za-z_][A-Za-z0-9_]*=/;
const ASSIGNED_TILDE = /(?<=[=:])~(?=[/:]|$)/g;
const HOME: WordPart = { kind: 'var', name: 'HOME' };
// What makes a `$` just before it an expansion (a name, a special parameter, braces, quotes).
const EXPANDS_AFTER_DOLLAR = /^[A-Za-z0-9_@*#?$!{("'-]/;

function pushText(builder: WordBuilder, text: string, quoted: boolean): void {
  if (text === '') return;
  const last = builder.parts[builder.parts.length - 1];
  if (last?.kind === 'text')
    builder.parts[builder.parts.length - 1] = { kind: 'text', text: last.text + text };
  else builder.parts.push({ kind: 'text', text });
  builder.shape += quoted ? INERT.repeat(text.length) : text;
}

function pushDynamic(builder: WordBuilder, part: WordPart): void {
  builder.parts.push(part);
  builder.shape += INERT;
  builder.dynamic = true;
}

/** Pieces of one word, in order. */
function addSequence(builder: WordBuilder, nodes: readonly Node[]): void {
  nodes.forEach((node, i) => {
    const next = nodes[i + 1];
    // `$"…"`, `$'…'`, `$1`, `${x}` split by the grammar into a bare `$` and what follows: bash
    // expands them, so that `$` is a run-time piece, not text. Before a "…" it is a locale
    // translation: the string itself unless a message catalogue replaces it.
    if (
      next !== undefined &&
      !node.type.endsWith('string') &&
      endsWithDollar(node.text) &&
      EXPANDS_AFTER_DOLLAR.test(next.text)
    ) {
      addUnquoted(builder, node.text.slice(0, -1));
      pushDynamic(builder, startsWithString(next) ? TRANSLATION : RUN_TIME);
    } else addNode(builder, node);
  });
}

/** A "…" string, or a word the grammar made of one and what touches it (`"R"f`). */
function startsWithString(node: Node): boolean {
  return (node.type === 'concatenation' ? node.firstChild : node)?.type === 'string';
}

function endsWithDollar(raw: string): boolean {
  if (!raw.endsWith('$')) return false;
  let run = 0;
  for (let i = raw.length - 2; i >= 0 && raw[i] === '\\'; i -= 1) run += 1;
  return run % 2 === 0;
}

/** Unquoted text: a backslash makes the next character literal; `\` + newline disappears. */
function addUnquoted(builder: WordBuilder, raw: string): void {
  // An unquoted newline ends a command for bash; the grammar sometimes puts one inside a word.
  if (/(?:^|[^\\])(?:\\\\)*\n/.test(raw)) builder.inexact = true;
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i] as string;
    if (ch === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1] as string;
      if (next !== '\n') pushText(builder, next, true);
      i += 2;
      continue;
    }
    pushText(builder, ch, false);
    i += 1;
  }
}

/** `$'...'` as bash decodes it; `exact` is false when a byte escape makes text that is not UTF-8. */
function decodeAnsiC(body: string): { text: string; exact: boolean } {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  let exact = true;
  const text = body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_match, esc: string) => {
      const head = esc[0] as string;
      if (head === 'x' || /^[0-7]/.test(esc)) {
        const byte =
          Number.parseInt(head === 'x' ? esc.slice(1) : esc, head === 'x' ? 16 : 8) & 0xff;
        // A byte past ASCII is part of a multibyte character (or not text at all): not known here.
        if (byte >= 0x80) exact = false;
        return String.fromCharCode(byte);
      }
      if (head === 'u' || head === 'U') {
        const code = Number.parseInt(esc.slice(1), 16);
        // Past ASCII the result depends on the locale bash runs in.
        if (code >= 0x80) exact = false;
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      if (head === 'c')
        return esc[1] === '?' ? '\x7f' : String.fromCharCode((esc.charCodeAt(1) || 0) & 0x1f);
      return Object.hasOwn(simple, esc) ? (simple[esc] as string) : `\\${esc}`;
    },
  );
  // bash keeps the string as a C string: a NUL ends it.
  const nul = text.indexOf('\0');
  return { text: nul === -1 ? text : text.slice(0, nul), exact };
}

// `${x:?msg}` and `${x?msg}` are x's value whenever the command runs at all.
const CHECKING = /^:?\?/;
// `${x:-word}`, `${x:=word}` and their forms without `:`: x's value, or the word when x is
// unset (or, with `:`, empty): `rm -rf "${HOME:-/x}"` is the home.
const DEFAULTING = /^:?[-=]/;
// An operator holding a quote or an expansion is not read as written (`${HOME%"/"}`).
const NOT_AS_WRITTEN = /[$`"'\\]/;

/** The nodes of `${x:-word}` after its operator: the word. */
function defaultWord(node: Node): ShellWord {
  const children = node.children.filter((c): c is Node => c !== null);
  const at = children.findIndex((c) => !c.isNamed && DEFAULTING.test(c.text) && c.text !== '${');
  const nodes = children.slice(at + 1).filter((c) => c.text !== '}');
  return at < 0 || nodes.length === 0 ? literalWord('') : resolveWords(nodes);
}

function variablePart(node: Node): WordPart {
  const named = node.namedChildren.filter((child): child is Node => child !== null);
  const [first] = named;
  if (
    first === undefined ||
    (first.type !== 'variable_name' && first.type !== 'special_variable_name')
  )
    return RUN_TIME;
  const name = first.text;
  if (node.type === 'simple_expansion')
    return named.length === 1 ? { kind: 'var', name } : RUN_TIME;
  if (node.type !== 'expansion') return RUN_TIME;
  const inner = node.text.slice(2, -1);
  if (inner === name) return { kind: 'var', name };
  const derived = (operator: string | null): WordPart => ({
    kind: 'dynamic',
    output: null,
    derived: { from: 'variable', name, operator },
  });
  if (inner === `#${name}`) return derived('length');
  // `${!x}`, `${#a[@]}` and the like: not a plain operator on one variable.
  if (!inner.startsWith(name)) return RUN_TIME;
  const operator = inner.slice(name.length);
  if (CHECKING.test(operator)) return { kind: 'var', name };
  if (DEFAULTING.test(operator)) return { kind: 'var', name, otherwise: defaultWord(node) };
  return derived(NOT_AS_WRITTEN.test(operator) ? null : operator);
}

/** The words of the one simple command inside `$(…)`, each resolved; null for anything else. */
function substitutedWords(node: Node): ShellWord[] | null {
  if (node.type !== 'command_substitution') return null;
  const inner = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  const command = inner.length === 1 ? inner[0] : undefined;
  return command?.type === 'command' ? commandWords(command) : null;
}

/** The words of a simple command node, each resolved. */
function commandWords(command: Node): ShellWord[] {
  return command.namedChildren
    .filter((c): c is Node => c !== null)
    .map((c) => resolveWord(c.type === 'command_name' ? (c.namedChildren[0] ?? c) : c));
}

/** The directory `$(cd DIR && pwd)` (or `; pwd`) prints: DIR's word; null for anything else. */
function changedDirectory(node: Node): ShellWord | null {
  if (node.type !== 'command_substitution') return null;
  const inner = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  const [only] = inner;
  const pair =
    inner.length === 2
      ? inner
      : only?.type === 'list' && only.children.some((c) => c?.text === '&&')
        ? only.namedChildren.filter((c): c is Node => c !== null)
        : [];
  const [cd, pwd] = pair;
  if (pair.length !== 2 || cd?.type !== 'command' || pwd?.type !== 'command') return null;
  const [cdName, target, ...more] = commandWords(cd);
  const [pwdName, ...options] = commandWords(pwd);
  const plain =
    cdName?.text === 'cd' &&
    pwdName?.text === 'pwd' &&
    more.length === 0 &&
    options.every((o) => o.text === '-L') &&
    target !== undefined &&
    !target.text.startsWith('-');
  return plain ? target : null;
}

/** What `$(echo x)` or `$(printf x)` prints when everything in it is literal; null otherwise. */
function echoedOutput(words: readonly ShellWord[] | null): string | null {
  const [name, ...args] = words ?? [];
  if (name === undefined || !(words ?? []).every((w) => w.literal)) return null;
  if (name.text === 'echo')
    return args
      .filter((a) => !/^-[neE]+$/.test(a.text))
      .map((a) => a.text)
      .join(' ');
  if (name.text === 'printf' && args.length === 1 && !args[0]?.text.includes('%'))
    return args[0]?.text.replace(/\\n/g, '\n').trim() ?? null;
  return null;
}

function substitutionPart(node: Node): WordPart {
  const words = substitutedWords(node);
  const [name, ...args] = words ?? [];
  const printsName = name === undefined ? null : nameOutputPattern(name, args);
  const objectNames = name !== undefined && printsObjectNames(name, args);
  return {
    kind: 'dynamic',
    output: echoedOutput(words),
    ...(printsName === null ? {} : { printsName }),
    ...(objectNames ? { objectNames: true as const } : {}),
    ...derivation(node, words),
  };
}

function derivation(node: Node, words: ShellWord[] | null): { derived?: Derivation } {
  if (words !== null) return { derived: { from: 'command', words } };
  const directory = changedDirectory(node);
  return directory === null ? {} : { derived: { from: 'directory', word: directory } };
}

function addQuotedText(builder: WordBuilder, raw: string): void {
  pushText(
    builder,
    raw.replace(DOUBLE_QUOTE_ESCAPES, (_m, c: string) => (c === '\n' ? '' : c)),
    true,
  );
}

/** "...": all text between the quotes except the expansions (the grammar leaves some text, like a lone `$` or newline, out of its string_content nodes). */
function addDoubleQuoted(builder: WordBuilder, node: Node): void {
  const base = node.startIndex;
  const text = node.text;
  let from = 1;
  for (const child of node.namedChildren) {
    if (child === null || child.type === 'string_content') continue;
    // The grammar starts `"a $x"`'s expansion node at the blank before the `$`.
    const start = child.startIndex - base + (child.text.length - child.text.trimStart().length);
    addQuotedText(builder, text.slice(from, start));
    from = child.endIndex - base;
    if (child.type === 'simple_expansion' || child.type === 'expansion')
      pushDynamic(builder, variablePart(child));
    else pushDynamic(builder, substitutionPart(child));
  }
  addQuotedText(builder, text.slice(from, text.endsWith('"') ? -1 : undefined));
}

function addNode(builder: WordBuilder, node: Node): void {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'variable_name':
      addUnquoted(builder, node.text);
      return;
    case 'raw_string':
      pushText(builder, node.text.slice(1, -1), true);
      return;
    case 'ansi_c_string': {
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      if (decoded.exact) pushText(builder, decoded.text, true);
      else pushDynamic(builder, RUN_TIME);
      return;
    }
    case 'string':
      addDoubleQuoted(builder, node);
      return;
    case 'translated_string': {
      pushDynamic(builder, TRANSLATION);
      const inner = node.namedChildren[0];
      if (inner) addDoubleQuoted(builder, inner);
      return;
    }
    case 'variable_assignment':
    case 'concatenation':
      addSequence(
        builder,
        node.children.filter((c): c is Node => c !== null),
      );
      return;
    case 'simple_expansion':
    case 'expansion':
      pushDynamic(builder, variablePart(node));
      return;
    default:
      // Substitutions, arithmetic, brace ranges, extglobs: known only at run time.
      if (node.isNamed) pushDynamic(builder, substitutionPart(node));
      else addUnquoted(builder, node.text);
  }
}

/** Render parts as text: variables as ${name}, run-time pieces as $(...). */
export function partsText(parts: readonly WordPart[]): string {
  return parts
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'var' ? `\${${p.name}}` : '$(...)'))
    .join('');
}

/** True when bash turns this word's leading `~` into the home directory (prefix `~` alone, unquoted). */
function tildeIsHome(node: Node): boolean {
  const first = node.type === 'concatenation' ? node.firstChild : node;
  if (first === null || first.type !== 'word' || !first.text.startsWith('~')) return false;
  const slash = first.text.indexOf('/');
  if (slash === -1) return first === node && first.text === '~';
  return slash === 1;
}

/** `of=~/x`, `PATH=a:~/bin` as arguments: bash expands those tildes to the home directory. */
function expandAssignedTildes(builder: WordBuilder): void {
  if (!ASSIGNMENT_LIKE.test(builder.shape)) return;
  const tildes = [...builder.shape.matchAll(ASSIGNED_TILDE)].map((m) => m.index);
  if (tildes.length === 0) return;
  const parts: WordPart[] = [];
  let offset = 0;
  for (const part of builder.parts) {
    if (part.kind !== 'text') {
      parts.push(part);
      offset += 1;
      continue;
    }
    let from = 0;
    for (const at of tildes.filter((t) => t >= offset && t < offset + part.text.length)) {
      if (at - offset > from)
        parts.push({ kind: 'text', text: part.text.slice(from, at - offset) });
      parts.push(HOME);
      from = at - offset + 1;
    }
    if (from < part.text.length) parts.push({ kind: 'text', text: part.text.slice(from) });
    offset += part.text.length;
  }
  builder.parts = parts;
  builder.dynamic = true;
}

/** Resolve a word node (word, string, raw_string, concatenation, expansion ...) into a ShellWord. */
export function resolveWord(node: Node): ShellWord {
  return resolveWords([node]);
}

/**
 * Resolve nodes that touch (no blank between them) into the one word bash makes of them: the
 * grammar splits some words in two (`"a"\b`, `${x}\>`).
 */
export function resolveWords(nodes: readonly Node[]): ShellWord {
  const builder: WordBuilder = { parts: [], shape: '', dynamic: false, inexact: false };
  addSequence(builder, nodes);
  const node = nodes[0] as Node;
  expandAssignedTildes(builder);
  const glob = GLOB_CHARS.test(builder.shape);
  const text = partsText(builder.parts);
  // A leading `~` bash keeps as it is would read as the home directory: not what runs.
  const keptTilde = /^~(?:\/|$)/.test(text) && !tildeIsHome(node);
  const literal =
    !builder.dynamic && !builder.inexact && !keptTilde && !glob && !BRACE.test(builder.shape);
  return { text, literal, glob, parts: builder.parts };
}

/** A literal word made from plain text (used for payload pieces that were split by us). */
export function literalWord(text: string): ShellWord {
  return { text, literal: true, glob: false, parts: [{ kind: 'text', text }] };
}
