// Where tree-sitter-bash and bash read the same characters differently, before any word is
// judged: bash removes a backslash-newline while it reads its input (outside single quotes,
// comments and here-document text), so `cat /etc/sha\<newline>dow` is one word to bash and
// two to the grammar; and bash splits words on space and tab only, where the grammar also
// splits on carriage returns, form feeds and other blanks.
import type { Node } from 'web-tree-sitter';

// Contexts where bash keeps a backslash-newline as it is.
const KEEPS_CONTINUATION: ReadonlySet<string> = new Set([
  'raw_string',
  'ansi_c_string',
  'comment',
  'heredoc_body',
  'heredoc_content',
]);
// Contexts where a blank other than space, tab and newline is part of the text, as bash reads it.
const QUOTED: ReadonlySet<string> = new Set([
  'raw_string',
  'ansi_c_string',
  'string_content',
  'comment',
  'heredoc_body',
  'heredoc_content',
]);
// Shell text that runs: inside it, the quoting of an enclosing here-document no longer holds.
const CODE: ReadonlySet<string> = new Set([
  'command_substitution',
  'process_substitution',
  'expansion',
  'arithmetic_expansion',
]);
// Characters the grammar may read as blanks (or drop) while bash keeps them inside a word.
const FOREIGN_BLANKS =
  /[\r\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/** The nearest enclosing context of the character at `index`: one of `wanted`, code, or none. */
function contextAt(root: Node, index: number, wanted: ReadonlySet<string>): string | null {
  let node: Node | null = root.descendantForIndex(index, index + 1);
  while (node !== null) {
    if (wanted.has(node.type) && node.startIndex <= index && index < node.endIndex)
      return node.type;
    if (CODE.has(node.type)) return null;
    node = node.parent;
  }
  return null;
}

/** True when the backslash at `index` is itself escaped by an odd run of backslashes before it. */
function escaped(source: string, index: number): boolean {
  let run = 0;
  for (let i = index - 1; i >= 0 && source[i] === '\\'; i -= 1) run += 1;
  return run % 2 === 1;
}

/**
 * The source with every line continuation bash would remove removed, or null when there is
 * none. The tree gives the quoting; the caller parses the joined text again.
 */
export function joinContinuations(root: Node, source: string): string | null {
  let joined = '';
  let from = 0;
  for (let at = source.indexOf('\\\n'); at !== -1; at = source.indexOf('\\\n', at + 2)) {
    if (escaped(source, at) || contextAt(root, at, KEEPS_CONTINUATION) !== null) continue;
    joined += source.slice(from, at);
    from = at + 2;
  }
  return from === 0 ? null : joined + source.slice(from);
}

/** True when the grammar puts an unquoted newline inside a word: bash ends the command there. */
function newlineInWord(root: Node, source: string): boolean {
  for (let at = source.indexOf('\n'); at !== -1; at = source.indexOf('\n', at + 1)) {
    const node = root.descendantForIndex(at, at + 1);
    // Only a backslash of the same word escapes the newline (one ending a comment does not).
    if (node?.type === 'word' && !escaped(node.text, at - node.startIndex)) return true;
  }
  return false;
}

// `$'…'` as bash reads it: a backslash escapes any one character, `\\` included.
const ANSI_C = /^\$'(?:[^'\\]|\\[\s\S])*'$/;

/** True when the grammar ends a `$'…'` elsewhere than bash (it reads `\\'` as an escaped quote). */
function misreadAnsiC(root: Node, source: string): boolean {
  if (!source.includes("$'")) return false;
  return root.descendantsOfType('ansi_c_string').some((n) => n !== null && !ANSI_C.test(n.text));
}

/**
 * True when the grammar reads some characters otherwise than bash: a blank bash keeps inside a
 * word, an unquoted newline inside a word, a `$'…'` that ends elsewhere.
 */
export function readsOtherwise(root: Node, source: string): boolean {
  if (newlineInWord(root, source) || misreadAnsiC(root, source)) return true;
  // No argument of a program can hold a NUL: whatever the grammar makes of it, bash never runs it.
  if (source.includes('\0')) return true;
  for (const match of source.matchAll(FOREIGN_BLANKS)) {
    if (contextAt(root, match.index, QUOTED) === null) return true;
  }
  return false;
}

// What bash expands in an unquoted here-document that the grammar reads as text: backquotes,
// and quotes inside `${…}` and `$((…))`, which quote nothing there (`${a['$(cmd)']}` runs cmd).
const HEREDOC_CODE = /`|\$\{|\$\(\(|\$\[/;

/** True when a here-document's body holds code that bash runs and the grammar cannot show. */
export function heredocHidesCode(redirect: Node): boolean {
  if (redirect.type !== 'heredoc_redirect') return false;
  const start = redirect.namedChildren.find((c) => c?.type === 'heredoc_start');
  // A quoted delimiter (`<<'EOF'`, `<<E\OF`) keeps the body as it is.
  if (start === undefined || start === null || /['"\\]/.test(start.text)) return false;
  const body = redirect.namedChildren.find((c) => c?.type === 'heredoc_body');
  return body !== undefined && body !== null && HEREDOC_CODE.test(body.text);
}
