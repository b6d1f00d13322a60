// `sqlite3 books.db 'SELECT title FROM books LIMIT 5'`, `sqlite3 -header -csv books.db '.tables'`:
// a query of a database, run as code nobody reviewed (the database's views and triggers are
// code) in the read-only-code sandbox: nothing writable but its private /tmp (a write fails:
// the file is read-only), no network, of the home only the database file (so ~/.sqliterc, which
// sqlite3 runs at every start and whose `.shell` lines run programs, is not there). On top of
// that the words are read conservatively, by allowlist: output options only (no -init, -cmd,
// -A, -zip, -deserialize), one plain database path (no `file:` URI, no stdin), then one or more
// commands, each a dot-command from a short list (`.tables`, `.schema`, `.headers on`, `.mode
// csv`: never `.shell`, `.system`, `.output`, `.once`, `.import`, `.read`, `.load`, `.open`) or
// SQL whose every statement is a SELECT or WITH, with no word that writes or reaches outside
// the database (ATTACH, VACUUM, PRAGMA, INSERT ...), every function called from a list of pure
// ones, and no name of the shell's file and extension functions (readfile, writefile, edit,
// fsdir, zipfile, load_extension, fts3_tokenizer ...) anywhere, quoted or not.
import { credentialFileByName } from '../../../constitution/credential-files.ts';
import { mayHoldCredential } from '../../../constitution/stored-credentials.ts';
import { effects, type WorkspaceEffects, type WorkspaceRuleSpec } from './spec.ts';

/** Options that only shape what is printed; `-readonly` and `-safe` only take away. */
const FLAGS: ReadonlySet<string> = new Set(
  [
    'header',
    'headers',
    'noheader',
    'csv',
    'json',
    'column',
    'line',
    'list',
    'box',
    'markdown',
    'table',
    'tabs',
    'html',
    'quote',
    'ascii',
    'readonly',
    'safe',
    'bail',
    'batch',
    'nofollow',
  ].map((name) => `-${name}`),
);

/** Options that take one value: a text to print, never a path. */
const VALUED: ReadonlySet<string> = new Set(['-separator', '-newline', '-nullvalue']);

/** Dot-commands that print the schema or shape the output, never open, write or run anything. */
const DOT_COMMAND =
  /^\.(?:tables|schema|fullschema|indexes|indices|headers?|mode|width|nullvalue|separator|databases)(?:[ \t]+[\w%*.,-]+)*[ \t]*$/;

/** `.mode` modes that print to the output; `.mode insert TABLE` and the like take more words. */
const MODES: ReadonlySet<string> = new Set([
  'ascii',
  'box',
  'csv',
  'column',
  'html',
  'json',
  'line',
  'list',
  'markdown',
  'qbox',
  'quote',
  'table',
  'tabs',
  'tcl',
]);

/** Words that make a statement write, change the connection or reach another file. */
const FORBIDDEN_WORDS: ReadonlySet<string> = new Set([
  'insert',
  'update',
  'delete',
  'replace',
  'upsert',
  'into',
  'create',
  'drop',
  'alter',
  'attach',
  'detach',
  'vacuum',
  'pragma',
  'reindex',
  'analyze',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'returning',
]);

/**
 * The sqlite3 shell's own functions and virtual tables that read, write or list files, load
 * code or open an editor, and the core's that load code: refused by name wherever they appear,
 * quoted or not (`"readfile"('x')` calls readfile; `FROM fsdir WHERE name='.'` is a table).
 */
const SHELL_FILE_NAMES =
  /^(?:readfile|writefile|edit|fsdir|lsmode|zipfile\w*|sqlar_\w+|load_extension|fts3_tokenizer|sqlite_db\w+|shell_\w+|completion)$/i;

/** Keywords that may stand before `(`: a subquery, a list, a cast, a window. */
const KEYWORDS_BEFORE_PAREN: ReadonlySet<string> = new Set([
  'select',
  'from',
  'join',
  'where',
  'on',
  'in',
  'exists',
  'not',
  'and',
  'or',
  'as',
  'cast',
  'over',
  'filter',
  'values',
  'using',
  'by',
  'having',
  'when',
  'then',
  'else',
  'union',
  'all',
  'intersect',
  'except',
  'is',
  'like',
  'glob',
  'between',
  'case',
  'limit',
  'offset',
  'distinct',
  'with',
]);

/** Functions that compute from their arguments and the rows, and nothing else. */
const PURE_FUNCTIONS: ReadonlySet<string> = new Set([
  'abs',
  'avg',
  'char',
  'coalesce',
  'count',
  'date',
  'datetime',
  'format',
  'glob',
  'group_concat',
  'hex',
  'ifnull',
  'iif',
  'instr',
  'json',
  'json_array',
  'json_extract',
  'json_group_array',
  'json_group_object',
  'json_object',
  'julianday',
  'length',
  'like',
  'lower',
  'ltrim',
  'max',
  'min',
  'nullif',
  'printf',
  'quote',
  'round',
  'rtrim',
  'sign',
  'strftime',
  'string_agg',
  'substr',
  'substring',
  'sum',
  'time',
  'total',
  'trim',
  'typeof',
  'unixepoch',
  'upper',
  'row_number',
  'rank',
  'dense_rank',
  'lag',
  'lead',
]);

/** One token of SQL: a bare word, a quoted name, a string or number, or one punctuation mark. */
type Token =
  | { readonly kind: 'word'; readonly text: string }
  | { readonly kind: 'name'; readonly text: string }
  | { readonly kind: 'literal' }
  | { readonly kind: 'mark'; readonly text: string };

// Comments and white space, strings, quoted names ("x", `x`, [x]), numbers, bare words, and
// the punctuation a query uses. No parameters (? :x @x $x), no other character: null.
const TOKEN =
  /\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\|\||<=|>=|<>|!=|==|[(),.;*=<>+\-/%])/y;

/** The SQL's tokens, or null when it holds anything the reader does not know. */
function tokens(sql: string): Token[] | null {
  const found: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < sql.length) {
    const match = TOKEN.exec(sql);
    if (match === null) return null;
    const [text, dq, bq, bracket, number, word, mark] = match;
    const name = dq ?? bq ?? bracket;
    if (name !== undefined) found.push({ kind: 'name', text: name });
    else if (word !== undefined) found.push({ kind: 'word', text: word.toLowerCase() });
    else if (mark !== undefined) found.push({ kind: 'mark', text: mark });
    else if (number !== undefined || text.startsWith("'")) found.push({ kind: 'literal' });
  }
  return found;
}

/** Whether a token may stand before `(`: an allowed function or a keyword that opens a list. */
function mayCall(token: Token | undefined): boolean {
  if (token === undefined || token.kind === 'literal') return true;
  if (token.kind === 'name') return false;
  if (token.kind === 'mark') return true;
  return PURE_FUNCTIONS.has(token.text) || KEYWORDS_BEFORE_PAREN.has(token.text);
}

/** Whether the SQL only reads: every statement a SELECT or WITH, nothing refused in it. */
export function sqlOnlyReads(sql: string): boolean {
  const found = tokens(sql);
  if (found === null) return false;
  let statementStart = true;
  let statements = 0;
  for (const [at, token] of found.entries()) {
    if (token.kind === 'mark' && token.text === ';') {
      statementStart = true;
      continue;
    }
    if (statementStart) {
      if (token.kind !== 'word' || (token.text !== 'select' && token.text !== 'with')) return false;
      statementStart = false;
      statements += 1;
    }
    if (token.kind === 'word' && FORBIDDEN_WORDS.has(token.text)) return false;
    if ((token.kind === 'word' || token.kind === 'name') && SHELL_FILE_NAMES.test(token.text)) {
      return false;
    }
    if (token.kind === 'mark' && token.text === '(' && !mayCall(found[at - 1])) return false;
  }
  return statements > 0;
}

/** Whether a command word is a dot-command from the list (`.mode` with a mode that prints). */
function dotCommandReads(command: string): boolean {
  if (!DOT_COMMAND.test(command)) return false;
  const [name, ...rest] = command.trim().split(/[ \t]+/);
  if (name !== '.mode') return true;
  return rest.length <= 1 && rest.every((mode) => MODES.has(mode));
}

/** A database path sqlite3 opens as a plain file: no URI, no `:memory:`-style name, no option. */
function plainDatabase(word: string): boolean {
  return word !== '' && !word.startsWith('-') && !word.includes(':');
}

/** The database path of a read-only query line, or null when the words do anything more. */
export function sqliteQueryDatabase(args: readonly string[]): string | null {
  let at = 0;
  for (; at < args.length; at += 1) {
    // sqlite3 reads `--csv` as `-csv`.
    const word = (args[at] ?? '').replace(/^--(?=\w)/, '-');
    if (!word.startsWith('-')) break;
    if (VALUED.has(word)) at += 1;
    else if (!FLAGS.has(word)) return null;
  }
  const database = args[at];
  const commands = args.slice(at + 1);
  if (database === undefined || !plainDatabase(database) || commands.length === 0) return null;
  // A word after the database that begins with `-` is still an option to sqlite3.
  const reads = commands.every((command) =>
    command.startsWith('.')
      ? dotCommandReads(command)
      : !command.startsWith('-') && sqlOnlyReads(command),
  );
  return reads ? database : null;
}

/**
 * The database and its write-ahead log (rows written since the last checkpoint live there, and
 * a query prints them), read-checked as paths and the only files of the home the sandbox shows.
 */
function sqliteQuery(args: readonly string[]): WorkspaceEffects | null {
  const database = sqliteQueryDatabase(args);
  if (database === null) return null;
  if (credentialFileByName(database) !== null || mayHoldCredential(database)) return null;
  const files = [database, `${database}-wal`];
  return effects({ readOnlyCode: true, reads: files, databases: files });
}

export const SQLITE_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  {
    name: 'sqlite3 query',
    binary: 'sqlite3',
    effects: (args) => sqliteQuery(args),
    examples: {
      match: [`sqlite3 -header -csv books.db 'SELECT title FROM books LIMIT 5;'`],
      no_match: [`sqlite3 books.db "INSERT INTO books VALUES ('x')"`],
    },
  },
];
