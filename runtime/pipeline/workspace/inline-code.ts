// Code nobody reviewed, given on the command line: an interpreter's inline code (`python3 -c`,
// `node -e`, `perl -ne`, `ruby -e`) and the standard library's read-only tools run as modules
// (`python3 -m py_compile`, `-m json.tool`). What such code does cannot be read off the line, so
// the promise is the sandbox's alone: it runs read-only (nothing writable but its private /tmp),
// with no network and every protected place and host socket hidden (policy.ts). Which binaries
// are interpreters is constitution/programs.ts's one list; this file only says, per family,
// which option spellings hand it code. Anything else keeps its card: stdin (`python3 -`), an
// interactive session (`-i`), in-place edits (`perl -i`), a module outside the list (`-m pip`),
// and code whose text says it writes, deletes, runs programs or connects
// (constitution/code-effects.ts): it would only fail read-only.
import { inlineCodeChanges } from '../../../constitution/code-effects.ts';
import { credentialFileByName } from '../../../constitution/credential-files.ts';
import { mayHoldCredential } from '../../../constitution/stored-credentials.ts';
import { effects, type WorkspaceEffects, type WorkspaceRuleSpec } from './spec.ts';

/** The catalogue key of a family's inline-code rules: `(python)`, `(node)` ... */
export function interpreterKey(family: string): string {
  return `(${family})`;
}

/**
 * Code run read-only over `operands`, the program's own words: each is read-checked as a path
 * (a directory as the tree the code may walk), and the sandbox shows it (policy.ts).
 */
const code = (operands: readonly string[] = []): WorkspaceEffects =>
  effects({ readOnlyCode: true, reads: operands.filter((word) => !word.startsWith('-')) });

/**
 * The paths the code's text spells as quoted literals from `/` or `~/` (`require('/home/me/app/
 * package.json')`, `open(os.path.expanduser("~/notes/todo.md"))`): read like its operands, each
 * read-checked and shown to the code. A path the code builds otherwise stays hidden.
 */
function pathsInCode(text: string): string[] {
  return [...text.matchAll(/["'`]((?:\/|~\/)[^"'`\s$]+)["'`]/g)].map((found) => found[1] ?? '');
}

/**
 * The words when each is an option `flag` accepts, or one of `codeOptions` followed by its code
 * (at least one), the words after the code being the program's own (sys.argv, input files).
 */
function inline(
  family: string,
  args: readonly string[],
  flag: (word: string) => boolean,
  codeOption: (word: string) => boolean,
  repeats: boolean,
): WorkspaceEffects | null {
  let seen = false;
  const named: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] ?? '';
    if (codeOption(word)) {
      const text = args[i + 1];
      if (text === undefined || inlineCodeChanges(text, family) !== null) return null;
      seen = true;
      named.push(...pathsInCode(text));
      i += 1;
      if (!repeats) return code([...named, ...args.slice(i + 1)]);
      continue;
    }
    if (seen && !word.startsWith('-')) return code([...named, ...args.slice(i)]);
    if (!flag(word)) return null;
  }
  return seen ? code(named) : null;
}

/** python's flags that only shape the run: no -i (interactive), -x, -W or -X values. */
const PYTHON_FLAG = /^-[BEIOsSuqb]+$/;

/**
 * Standard library modules that read and print, and nothing more (py_compile's and compileall's
 * bytecode goes to the private /tmp: PYTHONPYCACHEPREFIX). pytest and unittest are project code
 * (runners.ts); pip, venv and http.server are not here.
 */
const PYTHON_TOOLS: ReadonlySet<string> = new Set([
  'py_compile',
  'compileall',
  'json.tool',
  'tabnanny',
  'tokenize',
  'ast',
  'dis',
  'platform',
  'sysconfig',
  'timeit',
]);

function pythonCode(args: readonly string[]): WorkspaceEffects | null {
  return inline(
    'python',
    args,
    (word) => PYTHON_FLAG.test(word),
    (word) => word === '-c',
    false,
  );
}

function pythonModule(args: readonly string[]): WorkspaceEffects | null {
  const at = args.findIndex((word) => !PYTHON_FLAG.test(word));
  return args[at] === '-m' && PYTHON_TOOLS.has(args[at + 1] ?? '')
    ? code(args.slice(at + 2))
    : null;
}

/** node's options that only shape how the code is read. */
const NODE_FLAG = /^(?:--no-warnings|--input-type=(?:module|commonjs)|--no-deprecation)$/;
const NODE_CODE = /^(?:-e|-p|-pe|--eval|--print)$/;

function nodeCode(args: readonly string[]): WorkspaceEffects | null {
  // node reads options on both sides of the code (`node -e CODE --require x`): after it, words
  // are the program's only when none is an option. `--eval=CODE` carries its code in the word.
  const at = args.findIndex((word) => !NODE_FLAG.test(word));
  const word = args[at] ?? '';
  const attached = /^--(?:eval|print)=(.+)$/s.exec(word)?.[1];
  const text = attached ?? (NODE_CODE.test(word) ? args[at + 1] : undefined);
  if (text === undefined || inlineCodeChanges(text, 'node') !== null) return null;
  const after = attached === undefined ? at + 2 : at + 1;
  const operands = args.slice(after);
  return operands.every((rest) => !rest.startsWith('-'))
    ? code([...pathsInCode(text), ...operands])
    : null;
}

/** perl's one-liner switches (-l -n -p -a -w, -0 with its octal), a module (-MJSON::PP), -F. */
const PERL_FLAG = /^(?:-[lnpaw0-7]+|-M-?[\w:]+(?:=[\w,:]+)?|-F\S+)$/;

function perlCode(args: readonly string[]): WorkspaceEffects | null {
  return inline(
    'perl',
    args,
    (word) => PERL_FLAG.test(word),
    (word) => /^-[lnpaw0-7]*[eE]$/.test(word),
    true,
  );
}

/** ruby's one-liner switches and a library (-rjson). */
const RUBY_FLAG = /^(?:-[lnpaw]+|-r[\w/]+)$/;

function rubyCode(args: readonly string[]): WorkspaceEffects | null {
  return inline(
    'ruby',
    args,
    (word) => RUBY_FLAG.test(word),
    (word) => /^-[lnpaw]*e$/.test(word),
    true,
  );
}

/**
 * A word, or a quoted name in its code, that names a file which may hold a credential (`.env`,
 * `id_rsa`, `secrets.json`): such a file is read with a card wherever it lives, and code is no
 * way around that. A name the code builds is read by the sandbox's output redaction alone.
 */
function namesCredentialFile(word: string): boolean {
  const names = [word, ...[...word.matchAll(/["'`]([^"'`\s]+)["'`]/g)].map((m) => m[1] ?? '')];
  return names.some((name) => credentialFileByName(name) !== null || mayHoldCredential(name));
}

function rule(
  name: string,
  family: string,
  fn: WorkspaceRuleSpec['effects'],
  match: string,
  noMatch: string,
): WorkspaceRuleSpec {
  return {
    name,
    binary: interpreterKey(family),
    effects: (args, isDirectory) => {
      const found = args.some(namesCredentialFile) ? null : fn(args, isDirectory);
      return found === null ? null : { ...found, trees: found.reads.filter(isDirectory) };
    },
    examples: { match: [match], no_match: [noMatch] },
  };
}

/** The inline-code rules, keyed by the interpreter family they read. */
export const INLINE_CODE_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  rule('python -c', 'python', pythonCode, `python3 -B -c 'print(1)' arg`, 'python3 -i -c 1'),
  rule('python -m', 'python', pythonModule, 'python3 -m py_compile a.py', 'python3 -m pip list'),
  rule('node -e', 'node', nodeCode, `node -p 'process.version'`, 'node -r ./hook.js -e 1'),
  rule('perl -e', 'perl', perlCode, `perl -lne 'print if /x/' a.txt`, `perl -i -pe 's/a/b/' f`),
  rule('ruby -e', 'ruby', rubyCode, `ruby -rjson -e 'p 1'`, 'ruby script.rb'),
];
