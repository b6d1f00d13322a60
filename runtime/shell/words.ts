// Turn a tree-sitter-bash word node into a ShellWord: quotes removed, escapes resolved, and a
// record of everything the shell would still expand at run time (so "literal" can be trusted).
import type { Node } from 'web-tree-sitter';
import type { ShellWord, WordPart } from './types.ts';

/** Collects the pieces of one word; `shape` keeps unquoted text only, to spot globs and braces. */
interface WordBuilder {
  parts: WordPart[];
  shape: string;
  dynamic: boolean;
}

// Inside "...", a backslash only escapes these characters (bash manual, Double Quotes).
const DOUBLE_QUOTE_ESCAPES = /\\([$`"\\\n])/g;
const GLOB_CHARS = /[*?[]/;
// Brace expansion needs an unquoted {x,y} or {a..b}.
const BRACE = /\{[^{}]*(?:,|\.\.)[^{}]*\}/;
const RUN_TIME: WordPart = { kind: 'dynamic', output: null };
// A placeholder in the shape for characters that cannot expand (quoted or escaped).
const INERT = '_';

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

/** Unquoted text: a backslash makes the next character literal; `\` + newline disappears. */
function addUnquoted(builder: WordBuilder, raw: string): void {
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

function decodeAnsiC(body: string): string {
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
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_match, esc: string) => {
      const head = esc[0] as string;
      if (head === 'x' || head === 'u' || head === 'U') {
        const code = Number.parseInt(esc.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      if (/^[0-7]/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
      if (head === 'c') return String.fromCharCode((esc.charCodeAt(1) || 0) & 0x1f);
      return Object.hasOwn(simple, esc) ? (simple[esc] as string) : `\\${esc}`;
    },
  );
}

function variablePart(node: Node): WordPart {
  // ${name} with no operator is the same as $name; anything else (${x:-y}, ${#x}) is run-time.
  const named = node.namedChildren.filter((child): child is Node => child !== null);
  const only = named.length === 1 ? named[0] : undefined;
  if (
    only !== undefined &&
    (only.type === 'variable_name' || only.type === 'special_variable_name')
  ) {
    if (node.type === 'simple_expansion' || node.text === `\${${only.text}}`)
      return { kind: 'var', name: only.text };
  }
  return RUN_TIME;
}

/** What `$(echo x)` or `$(printf x)` prints when everything in it is literal; null otherwise. */
function echoedOutput(node: Node): string | null {
  if (node.type !== 'command_substitution') return null;
  const inner = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  const command = inner.length === 1 ? inner[0] : undefined;
  if (command?.type !== 'command') return null;
  const words = command.namedChildren
    .filter((c): c is Node => c !== null)
    .map((c) => resolveWord(c.type === 'command_name' ? (c.namedChildren[0] ?? c) : c));
  const [name, ...args] = words;
  if (name === undefined || !words.every((w) => w.literal)) return null;
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
  return { kind: 'dynamic', output: echoedOutput(node) };
}

function addDoubleQuoted(builder: WordBuilder, node: Node): void {
  for (const child of node.children) {
    if (child === null || !child.isNamed) continue;
    if (child.type === 'string_content') {
      pushText(
        builder,
        child.text.replace(DOUBLE_QUOTE_ESCAPES, (_m, c: string) => (c === '\n' ? '' : c)),
        true,
      );
    } else if (child.type === 'simple_expansion' || child.type === 'expansion') {
      pushDynamic(builder, variablePart(child));
    } else {
      pushDynamic(builder, substitutionPart(child));
    }
  }
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
    case 'ansi_c_string':
      pushText(builder, decodeAnsiC(node.text.slice(2, -1)), true);
      return;
    case 'string':
      addDoubleQuoted(builder, node);
      return;
    case 'translated_string': {
      const inner = node.namedChildren[0];
      if (inner) addDoubleQuoted(builder, inner);
      return;
    }
    case 'concatenation': {
      const children = node.children.filter((child) => child !== null);
      children.forEach((child, i) => {
        // tree-sitter-bash gives the $ of `a$"b"` as its own token: it marks a locale string
        // ($"…", the text itself without a message catalogue), not a $ in the word.
        if (isTranslationMark(child) && children[i + 1]?.type === 'string') return;
        addNode(builder, child);
      });
      return;
    }
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

/** The anonymous `$` token tree-sitter-bash leaves before a locale string's quotes. */
function isTranslationMark(node: Node): boolean {
  return !node.isNamed && node.type === '$';
}

/**
 * A command's anonymous `$` token (`-$` of `rm -$"R"f`, a lone `$`) as bash reads it: the
 * unquoted text that starts the next word when a locale string follows without a space, else
 * a word of its own. Null for any other node.
 */
export function translationPrefix(
  node: Node,
  next: Node | null | undefined,
): { readonly joinsNext: boolean; readonly text: string } | null {
  if (!isTranslationMark(node)) return null;
  const joinsNext = next !== null && next !== undefined && next.startIndex === node.endIndex;
  return { joinsNext, text: joinsNext ? node.text.slice(0, -1) : node.text };
}

/** Resolve a word node (word, string, raw_string, concatenation, expansion ...) into a ShellWord. */
export function resolveWord(node: Node): ShellWord {
  return resolvePrefixedWord('', node);
}

/** A word node with unquoted text bash reads as the start of the same word (`-` of `-$"R"f`). */
export function resolvePrefixedWord(prefix: string, node: Node): ShellWord {
  const builder: WordBuilder = { parts: [], shape: '', dynamic: false };
  addUnquoted(builder, prefix);
  addNode(builder, node);
  const glob = GLOB_CHARS.test(builder.shape);
  const literal = !builder.dynamic && !glob && !BRACE.test(builder.shape);
  return { text: partsText(builder.parts), literal, glob, parts: builder.parts };
}

/** A literal word made from plain text (used for payload pieces that were split by us). */
export function literalWord(text: string): ShellWord {
  return { text, literal: true, glob: false, parts: [{ kind: 'text', text }] };
}
