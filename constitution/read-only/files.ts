// Read-only rules for tools that list, read and transform files and text. Each rule's flags
// are the ones that would make the tool write or run something; the rest only print.
import { plain, refusing, type ReadOnlyRuleSpec } from './spec.ts';

// The checksum tools only print digests; --check reads the files a list names, which no path
// check sees.
// --files0-from reads the files a list names (like the checksums' --check): no path check sees them.
const FILES_FROM_LIST = '--files0-from';

const HASHES = ['md5sum', 'sha1sum', 'sha256sum', 'sha512sum'].map((binary) =>
  plain(binary, `${binary} dist/app.tgz`, `${binary} -c sums.txt`, {
    forbidden_flags: ['-c', '--check'],
  }),
);

/** Listing, reading and text-processing rules. */
export const FILE_READ_ONLY: readonly ReadOnlyRuleSpec[] = [
  plain('ls', 'ls -la src', 'ls -la src > listing.txt'),
  plain('cat', 'cat package.json', 'cat a.txt > b.txt'),
  plain('head', 'head -n 20 README.md', 'head -n 5 $FILE'),
  // -f/-F/--follow keep printing what is written after the decision judged the file (or a file
  // that did not exist then: a log that later gets a bearer token), in any form a filter prints.
  plain('tail', 'tail -n 50 app.log', 'tail -F app.log', {
    forbidden_flags: ['-f', '-F', '--follow', '--retry'],
    examples: {
      match: ['tail -n 50 app.log', 'tail -c 100 app.log'],
      no_match: ['tail -n 5 *.log', 'tail -F app.log', 'tail -fn0 app.log', 'tail --fol app.log'],
    },
  }),
  plain('wc', 'wc -l README.md', 'wc -l $(git ls-files)', {
    forbidden_flags: [FILES_FROM_LIST],
    // A glob with a literal start expands to paths that start the same way, never an option.
    examples: {
      match: ['wc -l README.md', 'wc -l src/*.ts'],
      no_match: ['wc -l $(git ls-files)', 'wc -l *.ts', 'wc --files0-from=list'],
    },
  }),
  // A key's fingerprint (-l) only; -y prints the public half of a private key, -p and -c rewrite it.
  plain('ssh-keygen', 'ssh-keygen -l -f key.pub', 'ssh-keygen -y -f key', {
    name: 'ssh-keygen -l',
    allowed_flags: ['-l', '-f', '-v', '-E'],
    required_flags: ['-l'],
    examples: {
      match: ['ssh-keygen -l -f key.pub', 'ssh-keygen -lf key.pub'],
      no_match: ['ssh-keygen -y -f key', 'ssh-keygen -p -f key', 'ssh-keygen -f key.pub'],
    },
  }),
  // -R and rg -L follow every symlink below the tree, out of the place the path check judged.
  plain('grep', "grep -rn 'TODO' src", 'grep -R x src', {
    forbidden_flags: ['-R', '--dereference-recursive'],
    pattern_options: ['--include', '--exclude', '--exclude-dir'],
    examples: {
      match: ["grep -rn 'TODO' src", 'grep -rn TODO --include=*.js src'],
      no_match: ['grep -r x src >> found.txt', 'grep -nR x src', 'grep -rn x --incl=*.js src'],
    },
  }),
  plain('rg', "rg 'fn main' src", "rg --pre ./run.sh 'x'", {
    forbidden_flags: ['--pre', '-L', '--follow'],
    examples: { match: ["rg 'fn main' src"], no_match: ["rg --pre ./run.sh 'x'", 'rg -L x src'] },
  }),
  plain('find', "find . -name '*.ts' -not -path './node_modules/*'", 'find . -name x -delete', {
    // -ok* ask on the terminal before running, -delete removes, -fprint* and -fls write files.
    // -L and -follow follow every symlink below the tree, out of the place the path check judged.
    // -exec and -execdir run their command on every match: read-only when that command is.
    forbidden_flags: ['-ok', '-okdir', '-delete', '-fprint', '-fls', '-L', '-follow'],
    exec_actions: ['-exec', '-execdir'],
    examples: {
      match: [
        "find . -name '*.ts' -not -path './node_modules/*'",
        'find src -type f -size +1M -exec du -h {} +',
        "find src -name '*.log' -execdir wc -l {} ';'",
      ],
      no_match: [
        'find . -name x -delete',
        'find src -exec rm {} +',
        "find src -exec sh -c 'cat $1' _ {} ';'",
        'find src -exec du -h {}',
        'find src -exec cat {}/x +',
        'find src -ok cat {} ;',
        'find -L src -type f -exec cat {} +',
        'find src -follow -name x',
      ],
    },
  }),
  plain('du', 'du -sh node_modules', 'du -sh *', { forbidden_flags: [FILES_FROM_LIST] }),
  // -C writes a compiled magic file; -f examines the files a list names.
  plain('file', 'file README.md', 'file -C -m magic', {
    forbidden_flags: ['-C', '--compile', '-f', '--files-from'],
  }),
  plain('stat', 'stat package.json', 'stat *'),
  plain('sort', 'sort -u names.txt', 'sort -o names.txt names.txt', {
    forbidden_flags: ['-o', '--output', '--compress-program', FILES_FROM_LIST],
  }),
  // uniq's second operand is an output file.
  plain('uniq', 'uniq -c names.txt', 'uniq names.txt out.txt', { max_args: 1 }),
  plain('cut', 'cut -d, -f1 data.csv', 'cut -f1 data.csv > col.txt'),
  plain('tr', 'tr a-z A-Z', 'tr a-z A-Z > up.txt'),
  plain('diff', 'diff -u old.txt new.txt', 'diff -u a b > patch.diff'),
  plain('tree', 'tree -L 2 src', 'tree -o tree.txt', { forbidden_flags: ['-o', '-R'] }),
  // less: literal files only; -o/-O log to a file, -k reads key bindings, + runs initial commands.
  plain('less', 'less README.md', 'less +!id README.md', {
    allowed_flags: ['-N', '-S', '-R', '-F', '-X', '-i', '-I', '-n'],
  }),
  // A jq program may load modules and data files it names (import, include, -L, -f): files no
  // path check sees.
  plain('jq', "jq '.version' package.json", 'jq . a.json > b.json', {
    forbidden_flags: ['-f', '--from-file', '-L', '--library-path'],
    refused_words: /\b(?:import|include|modulemeta|get_search_list)\b/,
    examples: {
      match: ["jq '.version' package.json", 'jq -r .name package.json'],
      no_match: [
        'jq . a.json > b.json',
        `jq -n 'import "backup/creds" as $x; $x'`,
        'jq -n -L lib \'include "m"; 1\'',
        'jq -f prog.jq data.json',
      ],
    },
  }),
  plain('basename', 'basename src/a.ts', 'basename $X'),
  plain('dirname', 'dirname src/a.ts', 'dirname $X'),
  plain('realpath', 'realpath src', 'realpath *'),
  plain('readlink', 'readlink -f src', 'readlink $X'),
  ...HASHES,
  plain('column', 'column -t -s, data.csv', 'column -t data.csv > table.txt'),
  plain('nl', 'nl -ba src/index.ts', 'nl a.txt > numbered.txt'),
  plain('rev', 'rev names.txt', 'rev names.txt > reversed.txt'),
  plain('comm', 'comm -12 a.txt b.txt', 'comm a.txt $B'),
  plain('join', 'join -t, a.csv b.csv', 'join a.csv b.csv > joined.csv'),
  plain('paste', 'paste -d, a.txt b.txt', 'paste a.txt b.txt > both.txt'),
  plain('fold', 'fold -w 80 notes.txt', 'fold -w 80 notes.txt > wrapped.txt'),
  plain('expand', 'expand -t 4 main.c', 'expand main.c > spaced.c'),
  plain('od', 'od -c data.bin', 'od -c data.bin > dump.txt'),
  plain('hexdump', 'hexdump -C data.bin', 'hexdump -C data.bin > dump.txt'),
  // xxd -r (also spelled --revert: xxd drops a doubled dash) writes binary back; a second
  // operand is an output file, and an option's value counts as one, so xxd -l 64 f asks.
  plain('xxd', 'xxd -l64 data.bin', 'xxd data.bin dump.txt', {
    forbidden_flags: ['-r'],
    max_args: 1,
    paths: refusing(/^--r/),
    examples: {
      match: ['xxd -l64 data.bin'],
      no_match: ['xxd data.bin dump.txt', 'xxd --revert d.hex'],
    },
  }),
  plain('strings', 'strings -n 8 app.bin', 'strings app.bin > found.txt'),
];
