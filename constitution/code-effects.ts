// What inline code (`python3 -c CODE`, `node -e CODE`, `perl -e CODE`, `ruby -e CODE`) says it
// does to the machine, read off its text. Inline code runs without a card only read-only, where
// a write, a deletion, a program or a connection fails anyway; code whose text names one of
// those asks instead: a careful person wants to see code that means to change something (a
// loop that encrypts every file in the home), and the model would only loop on the failure.
// A reading of the text, never the promise: the sandbox holds whatever this misses.

/** Each family of effect, and the calls that name it in the common interpreters. */
const EFFECTS: readonly {
  readonly why: string;
  readonly pattern: RegExp;
  /** Only for these families (a backtick is a template in node, a command in perl and ruby). */
  readonly families?: readonly string[];
  /** The family writes, overwrites or deletes files (among other things, for the builtins). */
  readonly changesFiles?: true;
}[] = [
  {
    why: 'opens a file for writing or appending',
    changesFiles: true,
    // python open(p, 'w'/'a'/'x'/'r+'), node openSync(p, 'w'), perl open(F, '>x'), ruby File.open(p, 'w').
    pattern:
      /\bopen(?:Sync)?\s*\(?.*?,\s*(?:mode\s*=\s*)?["'](?:[rbt]*[wax][rbt+]*|[rbt]*\+[rbt]*|\s*[>|+][^"']*)["']/,
  },
  {
    why: 'writes, moves, copies, links or deletes files, or changes their modes',
    changesFiles: true,
    pattern:
      /\b(?:write_text|write_bytes|writeFile|appendFile|createWriteStream|writeSync|unlink|rmSync|rmtree|rmdir|mkdir|makedirs|rename|copyfile|copyFile|copytree|cpSync|chmod|chown|symlink|truncate|utime|touch)\w*\s*\(|\bos\.(?:remove|replace|removedirs|renames?|link|mkfifo|mknod)\b|\bshutil\.|\bFileUtils\b|\bFile\.(?:write|delete|rename|unlink)\b/,
  },
  {
    why: 'runs other programs',
    pattern:
      /\b(?:subprocess|child_process|os\.(?:system|popen|exec\w*|spawn\w*|kill|fork)|process\.kill|IO\.popen|Process\.spawn)\b|(?<![.\w])(?:system|exec\w*|spawn\w*|popen|fork|kill)\s*\(|%x[{(]|\bqx\b/,
  },
  { why: 'runs other programs', pattern: /`/, families: ['perl', 'ruby'] },
  {
    // perl's and ruby's builtins are called without parentheses too (`unlink "a.txt"`).
    why: 'writes, deletes or runs, by a builtin',
    changesFiles: true,
    pattern:
      /\b(?:unlink|rename|mkdir|rmdir|chmod|chown|symlink|link|truncate|utime|system|exec|kill|fork)\b/,
    families: ['perl', 'ruby'],
  },
  {
    why: 'opens a network connection',
    pattern:
      /\b(?:socket|urllib|urlopen|requests|httpx|http\.client|ftplib|smtplib|paramiko|fetch|XMLHttpRequest|WebSocket|Net::HTTP|LWP|IO::Socket|TCPSocket|HTTP::Tiny)\b|\brequire\s*\(\s*["'](?:node:)?(?:net|https?|dgram|tls|dns|http2)["']\s*\)/,
  },
];

/** Inline code of an interpreter `family` whose text writes, overwrites or deletes files. */
export function inlineCodeChangesFiles(code: string, family: string): boolean {
  return EFFECTS.some(
    ({ pattern, families, changesFiles }) =>
      changesFiles === true &&
      (families === undefined || families.includes(family)) &&
      pattern.test(code),
  );
}

/**
 * Why inline code of an interpreter `family` (programs.ts interpreterFamily) says in its text
 * that it changes the machine (writes, deletes, runs, connects), or null.
 */
export function inlineCodeChanges(code: string, family: string): string | null {
  const found = EFFECTS.find(
    ({ pattern, families }) =>
      (families === undefined || families.includes(family)) && pattern.test(code),
  );
  return found?.why ?? null;
}
