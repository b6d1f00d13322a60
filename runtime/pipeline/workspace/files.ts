// Workspace rules for file tools: create, append, touch, copy, move, archive, and delete in
// the sandbox's private /tmp. Options that overwrite, follow or delete are not in any list, and
// no rule takes a path that may land where its text does not say (see withPlainPaths).
import { basename } from 'node:path';
import { COMPRESSOR_BINARIES, COMPRESSOR_RULES } from './compressors.ts';
import { climbsThroughName, containedTree, hiddenSegment } from '../scope-paths.ts';
import {
  effects,
  words,
  type IsDirectory,
  type WorkspaceEffects,
  type WorkspaceRuleSpec,
  type WorkspaceTarget,
} from './spec.ts';

/**
 * True when the path goes on below a /dev entry other than /dev/shm: the sandbox's /dev holds
 * device nodes and the links fd, stdin, stdout and stderr into /proc/self, so with `< .`
 * /dev/stdin/notes.txt is the working directory's notes.txt, not a file in a private /dev.
 */
function belowDevLink(path: string): boolean {
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  return (
    path.startsWith('/') && segments[0] === 'dev' && segments.length > 2 && segments[1] !== 'shm'
  );
}

const GLOB = /[*?[]/;

/**
 * True when a glob stands before the last segment (`/tmp/r?/notes.txt`): it may expand through a
 * symlink this same call made (cp -a copies one), which no check of another target's text sees.
 */
function globBeforeLast(path: string): boolean {
  return GLOB.test(path.slice(0, path.lastIndexOf('/') + 1));
}

/**
 * The rule's effects, or null when a path it reads or writes may land where its text does not
 * say. A written path takes no glob, unless it is a file made new (the policy finds no name it
 * could become) or `namesWhatItWrites`: rm, rmdir and mv never
 * follow the last segment, so `rm -rf /tmp/*` removes a symlink there, not what it leads to,
 * and `mv ~/Downloads/*.jpg ~/Pictures/` moves the names the glob finds (shred, tee, cp write
 * through a link). The policy judges such a glob by the names in its directory (targets.ts).
 */
export function withPlainPaths(
  rule: WorkspaceRuleSpec['effects'],
  namesWhatItWrites = false,
): WorkspaceRuleSpec['effects'] {
  // `..` after a name is refused for every path of the call (scope-paths.ts climbsThroughName).
  const plain = (path: string): boolean => !belowDevLink(path) && !globBeforeLast(path);
  // A read glob (`cp ~/Downloads/IMG_*.jpg ~/Pictures/2026/`) is judged by the read check as a
  // read-only command's is: every name it matches now, where its links lead, strictly below a
  // write root with nothing hidden (read-only-policy.ts readPathCheck).
  return (args, isDirectory) => {
    const found = rule(args, isDirectory);
    if (found === null || !found.reads.every(plain)) return null;
    const written = found.targets.map((target) => target.path);
    if (!written.every(plain)) return null;
    // A file made or added to is judged by the names its pattern could be (targets.ts).
    const named = (target: WorkspaceTarget): boolean =>
      namesWhatItWrites ||
      target.mode === 'create' ||
      target.mode === 'append' ||
      !GLOB.test(target.path);
    if (!found.targets.every(named)) return null;
    return found;
  };
}

const COPIES_TREES = ['-r', '-R', '--recursive', '-a', '--archive'];

/**
 * cp/mv destinations: the new name, or the same name inside a directory: one that exists, or one
 * written `DIR/`, which cp and mv only ever enter (with no directory there they fail and change
 * nothing), so `mkdir -p ~/Pictures/2026 && mv *.jpg ~/Pictures/2026/` makes new names in it.
 */
function destinations(
  sources: readonly string[],
  dest: string,
  isDirectory: IsDirectory,
): string[] | null {
  const inside = dest.length > 1 && dest.endsWith('/') ? dest.replace(/\/+$/, '') : null;
  if (inside !== null || isDirectory(dest))
    return sources.map((source) => `${inside ?? dest}/${basename(source)}`);
  // A glob may expand to several names, which only a directory takes.
  return sources.length === 1 && !GLOB.test(sources[0] ?? '') ? [dest] : null;
}

/**
 * A tree cp copies whole: named plainly (no `..`, no `~user`, nothing hidden in its text); the
 * read check then places it as it places `grep -r`'s (strictly below a write root, never the
 * home, walked for protected places below), so `cp -r ~/notes ~/notes-backup` runs.
 */
function treeSource(path: string): boolean {
  return !/^~[^/]/.test(path) && !climbsThroughName(path) && !hiddenSegment(path);
}

/** A tree named from `/` or `~/` (tar and zip read it there, whatever -C says): placed by the read check. */
function namedTree(path: string): boolean {
  return /^(?:~\/|\/)[^/]/.test(path) && treeSource(path);
}

/** cp (moves false) or mv (true): the sources read or moved and the new names they get. */
export function copyOrMove(moves: boolean) {
  return (args: readonly string[], isDirectory: IsDirectory): WorkspaceEffects | null => {
    // Only options that change how much is copied; -f, -b, -u, -t, -l, -s and friends are out.
    const parsed = words(args, {
      flags: moves
        ? ['-n', '--no-clobber', '-v', '--verbose']
        : ['-r', '-R', '--recursive', '-a', '--archive', '-p', '-n', '--no-clobber', '-v'],
    });
    if (parsed === null || parsed.operands.length < 2) return null;
    const sources = parsed.operands.slice(0, -1);
    const trees = COPIES_TREES.some((flag) => parsed.values[flag] === true);
    if (trees && !sources.every(treeSource)) return null;
    const dest = destinations(sources, parsed.operands.at(-1) as string, isDirectory);
    if (dest === null) return null;
    return effects({
      reads: moves ? [] : sources,
      trees: trees && !moves ? sources : [],
      targets: [
        ...(moves ? sources.map((path) => ({ path, mode: 'move' as const })) : []),
        ...dest.map((path) => ({ path, mode: 'create' as const })),
      ],
    });
  };
}

function mkdir(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-p', '--parents', '-v', '--verbose'] });
  if (parsed === null || parsed.operands.length === 0) return null;
  return effects({ targets: parsed.operands.map((path) => ({ path, mode: 'mkdir' })) });
}

function touch(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-c', '--no-create', '-a', '-m'] });
  if (parsed === null || parsed.operands.length === 0) return null;
  return effects({ targets: parsed.operands.map((path) => ({ path, mode: 'touch' })) });
}

function tee(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-a', '--append', '-i', '-p'] });
  if (parsed === null) return null;
  const mode = parsed.values['-a'] === true || parsed.values['--append'] === true;
  return effects({
    targets: parsed.operands.map((path) => ({ path, mode: mode ? 'append' : 'create' })),
  });
}

// Plain permission bits only: setuid, setgid and sticky (s, t, 4000, 2000, 1000) are out, and so
// is -R, which reaches every file below.
const PLAIN_MODE = /^(?:[0-7]{3}|[ugoa]*[-+=][rwxX]+(?:,[ugoa]*[-+=][rwxX]+)*)$/;

function chmod(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ['-v', '--verbose', '-c', '--changes'] });
  const [mode, ...paths] = parsed?.operands ?? [];
  if (mode === undefined || paths.length === 0 || !PLAIN_MODE.test(mode)) return null;
  return effects({ targets: paths.map((path) => ({ path, mode: 'touch' })) });
}

// dd's operands are key=value; conv=, seek= and oflag= change how an existing file is written.
const DD_KEYS = new Set(['if', 'of', 'bs', 'ibs', 'obs', 'count', 'skip', 'status']);

function dd(args: readonly string[]): WorkspaceEffects | null {
  const pairs = args.map((arg) => arg.split('='));
  if (!pairs.every((pair) => pair.length === 2 && DD_KEYS.has(pair[0] as string))) return null;
  // dd takes the LAST of= and if=: `of=new of=kept` writes over kept, so a key comes once.
  if (new Set(pairs.map((pair) => pair[0])).size !== pairs.length) return null;
  const value = (key: string): string | undefined => pairs.find((p) => p[0] === key)?.[1];
  const output = value('of');
  const input = value('if');
  if (output === undefined || output === '' || input === '') return null;
  return effects({
    reads: input === undefined ? [] : [input],
    targets: [{ path: output, mode: 'create' }],
  });
}

/**
 * tar's sources, each below the directory the `-C DIR` before it names (`-C ~ notes` is
 * ~/notes), or null when one is not a plain tree there or another option stands among them.
 */
function tarSources(words: readonly string[]): string[] | null {
  const sources: string[] = [];
  let base = '';
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    const dir = word === '-C' ? words[(i += 1)] : /^--directory=(.+)$/.exec(word)?.[1];
    if (dir !== undefined) base = base === '' || /^[~/]/.test(dir) ? dir : `${base}/${dir}`;
    else if (namedTree(word)) sources.push(word);
    else if (word.startsWith('-') || !containedTree(word)) return null;
    else sources.push(base === '' ? word : `${base.replace(/\/+$/, '')}/${word}`);
  }
  return sources.length > 0 ? sources : null;
}

// tar that creates an archive: one bundle of c, v, z, j, J and f (last, its value next).
function tar(args: readonly string[]): WorkspaceEffects | null {
  const [bundle, archive, ...rest] = args;
  if (bundle === undefined || archive === undefined) return null;
  if (!/^-?[cvzjJ]*f$/.test(bundle) || !bundle.includes('c')) return null;
  const sources = tarSources(rest);
  // GNU tar reads `host:file` as a remote archive and runs rsh/ssh to reach it.
  if (sources === null || archive.includes(':')) return null;
  return effects({ reads: sources, trees: sources, targets: [{ path: archive, mode: 'create' }] });
}

// zip that makes a new archive: `zip -r notes.zip notes`. The name must end in .zip (zip adds
// the suffix otherwise, so the file made would not be the one judged); -m deletes what it adds,
// -T/-TT run programs, -@ reads names from stdin, -u/-f/-d change an existing archive: out.
const ZIP_FLAGS = ['-r', '-q', '-v', '-j', '-y', '-X', '-0', '-1', '-6', '-9'];

function zip(args: readonly string[]): WorkspaceEffects | null {
  const parsed = words(args, { flags: ZIP_FLAGS });
  if (parsed === null) return null;
  const [archive, ...sources] = parsed.operands;
  if (archive === undefined || sources.length === 0 || !/[^/]\.zip$/.test(archive)) return null;
  if (!sources.every((source) => namedTree(source) || containedTree(source))) return null;
  const trees = parsed.values['-r'] === true ? sources : [];
  return effects({ reads: sources, trees, targets: [{ path: archive, mode: 'create' }] });
}

// Deleting only counts here when the policy finds every path in the sandbox's private /tmp.
// A lone `-` is no path: shred takes it as its standard output, wherever that was opened.
function remove(flags: readonly string[], valued: readonly string[] = []) {
  return (args: readonly string[]): WorkspaceEffects | null => {
    const parsed = words(args, { flags, valued });
    if (parsed === null || parsed.operands.length === 0 || parsed.operands.includes('-'))
      return null;
    return effects({ targets: parsed.operands.map((path) => ({ path, mode: 'remove' })) });
  };
}

/** The rules whose writes unlink or rename the path named, never what a symlink there leads to. */
const NAMES_WHAT_IT_WRITES: ReadonlySet<string> = new Set([
  'rm',
  'rmdir',
  'mv',
  ...COMPRESSOR_BINARIES,
]);

const FILE_RULES: readonly WorkspaceRuleSpec[] = [
  {
    name: 'mkdir',
    binary: 'mkdir',
    effects: mkdir,
    examples: { match: ['mkdir -p build/out'], no_match: ['mkdir -m 777 build'] },
  },
  {
    name: 'touch',
    binary: 'touch',
    effects: touch,
    examples: { match: ['touch src/.gitkeep'], no_match: ['touch -r ref.txt a.txt'] },
  },
  {
    name: 'chmod',
    binary: 'chmod',
    effects: chmod,
    examples: { match: ['chmod +x scripts/run.sh', 'chmod 644 a b'], no_match: ['chmod u+s tool'] },
  },
  {
    name: 'cp',
    binary: 'cp',
    effects: copyOrMove(false),
    examples: {
      match: ['cp -r src backup', 'cp -r ~/notes ~/notes-backup'],
      no_match: ['cp -f a.txt b.txt', 'cp a.txt /dev/stdin/x', 'cp -r ~/.config x', 'cp -r ~x/y z'],
    },
  },
  {
    name: 'mv',
    binary: 'mv',
    effects: copyOrMove(true),
    examples: {
      match: ['mv draft.md notes.md', 'mv photos/*.jpg album/', 'mv a.jpg b.jpg new-album/'],
      no_match: ['mv -f draft.md notes.md', 'mv photos/*.jpg album.jpg', 'mv */a.jpg album/'],
    },
  },
  {
    name: 'tee',
    binary: 'tee',
    effects: tee,
    examples: { match: ['tee -a build.log'], no_match: ['tee --output-error=exit x'] },
  },
  {
    name: 'dd',
    binary: 'dd',
    effects: dd,
    examples: {
      match: ['dd if=/dev/zero of=disk.img bs=1M count=8'],
      no_match: ['dd if=a of=b conv=notrunc', 'dd if=a of=new of=kept'],
    },
  },
  {
    name: 'zip',
    binary: 'zip',
    effects: zip,
    examples: {
      match: ['zip -r notes.zip notes', 'zip -qr ~/backups/notes.zip ~/notes'],
      no_match: [
        'zip -r notes notes',
        'zip -m notes.zip a.txt',
        'zip -TT sh x.zip a',
        'zip -r x.zip ~/.ssh',
      ],
    },
  },
  {
    name: 'tar create',
    binary: 'tar',
    effects: tar,
    examples: {
      match: ['tar czf dist.tgz dist', 'tar -czf notes.tgz -C ~ notes', 'tar czf n.tgz ~/notes'],
      no_match: [
        'tar xzf dist.tgz',
        'tar cf host:dist.tar dist',
        'tar czf x.tgz -C ~ .',
        'tar czf x.tgz -C',
      ],
    },
  },
  {
    name: 'rm in /tmp',
    binary: 'rm',
    effects: remove(['-r', '-R', '--recursive', '-f', '--force', '-v', '-d', '--dir']),
    examples: { match: ['rm -rf /tmp/build'], no_match: ['rm --no-preserve-root -rf /tmp/x'] },
  },
  {
    name: 'shred in /tmp',
    binary: 'shred',
    effects: remove(['-u', '-z', '-v', '-f'], ['-n', '--iterations']),
    examples: {
      match: ['shred -u /tmp/notes.txt'],
      no_match: ['shred --random-source=x f', 'shred -u -'],
    },
  },
  {
    name: 'rmdir in /tmp',
    binary: 'rmdir',
    effects: remove(['-p', '--parents', '-v']),
    examples: { match: ['rmdir /tmp/empty'], no_match: ['rmdir --ignore-fail-on-non-empty x'] },
  },
  ...COMPRESSOR_RULES,
];

/** The file rules. */
export const FILE_WORKSPACE: readonly WorkspaceRuleSpec[] = FILE_RULES.map((rule) => ({
  ...rule,
  effects: withPlainPaths(rule.effects, NAMES_WHAT_IT_WRITES.has(rule.binary)),
}));
