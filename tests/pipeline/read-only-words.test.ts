// Issue 6 refinements: plain globs in argument position, raw devices named by the tools that
// only look at a device node, and the word forms the catalogue must still refuse. Matched with
// the real parser, then decided by the real pipeline (guard first, then the policy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadCatalogue,
  matchReadOnly,
  type PathUse,
  type ReadOnlyCatalogue,
} from '../../runtime/pipeline/read-only.ts';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let catalogue: ReadOnlyCatalogue;
let pipeline: Pipeline;
let rootedPipeline: Pipeline;

beforeAll(async () => {
  await initShellParser();
  catalogue = loadCatalogue([]);
  pipeline = await pipelineWith();
  rootedPipeline = await pipelineWith({ roots: { read: ['~'] } });
});

afterAll(() => {
  pipeline.close();
  rootedPipeline.close();
});

interface Asked {
  readonly path: string;
  readonly use: PathUse | undefined;
}

/** The rule that matched and every path the matcher asked about, with how it will be used. */
function match(source: string, answer = true): { rule: string | null; asked: Asked[] } {
  const asked: Asked[] = [];
  const pathOk = (path: string, use?: PathUse): boolean => {
    asked.push({ path, use });
    return answer;
  };
  return { rule: matchReadOnly(parseShell(source), catalogue, pathOk)?.rule ?? null, asked };
}

function decide(command: string, on: Pipeline = pipeline) {
  return on.evaluate(call('shell_exec', { command }));
}

describe('globs in argument position', () => {
  it('a glob with a literal start matches, and its pattern is checked as a glob path', () => {
    const { rule, asked } = match('wc -l src/*.ts');
    expect(rule).toBe('wc');
    expect(asked).toEqual([{ path: 'src/*.ts', use: { glob: true, deviceMetadata: false } }]);
    expect(match('wc -l ./*.ts').rule).toBe('wc');
    expect(match('grep -n TODO src/*.ts lib/x?.js').rule).toBe('grep');
    expect(match('ls -la src/[ab]*').rule).toBe('ls');
  });

  it('a literal word beside a glob is still checked as a plain read', () => {
    const { asked } = match('cat README.md docs/*.md');
    expect(asked).toContainEqual({
      path: 'README.md',
      use: { glob: false, deviceMetadata: false },
    });
    expect(asked).toContainEqual({ path: 'docs/*.md', use: { glob: true, deviceMetadata: false } });
  });

  it('the caller refusing the pattern refuses the call', () => {
    expect(match('wc -l src/*.ts', false).rule).toBeNull();
  });

  it.each([
    ['ls -- *', 'no literal start: * can expand to a file named -rf'],
    ['ls *', 'no literal start'],
    ['cat ?x', 'no literal start'],
    ['cat */.ssh/id_rsa', 'no literal start'],
    ['cat -*', 'an option'],
    ['less +*', 'a + option'],
    ['cat src/{a,b}*.ts', 'brace expansion'],
    ['cat $DIR/*.ts', 'a variable'],
    ['cat src/$(echo x)*', 'a substitution'],
    ['cat src/.*', 'a dot wildcard segment can be ..'],
    ['cat src/.?/x', 'a dot wildcard segment can be ..'],
    ['cat src/*/../../x', 'a glob that climbs'],
    ['cat ~root/*.txt', 'another user home'],
    ['cat ~-/*.txt', 'the previous directory'],
    ['l* src', 'a glob in command position'],
    ['grep -r TODO src/*', 'a recursive reader'],
    ['grep -nR TODO src/*.ts', 'a recursive reader, clustered'],
    ['rg TODO src/*.ts', 'rg always recurses'],
    ['diff -r a/* b', 'a recursive diff'],
    ['uniq n*', 'max_args: a second expansion would be the output file'],
    ['xxd src/*.bin', 'max_args'],
    ["sed -n '1,5p' src/*.ts", 'words picked by position (paths)'],
    ['cat < src/*.txt', 'a redirect target'],
    ['timeout 5* cat a', 'a wrapper argument'],
  ])('%s is refused (%s)', (source) => {
    expect(match(source).rule).toBeNull();
  });
});

describe('literal words the shell rewrites', () => {
  it.each(['cat ~root/.bash_history', 'cat ~-/notes.txt', 'ls ~+/src'])(
    '%s is refused: the text does not name the directory',
    (source) => {
      expect(match(source).rule).toBeNull();
    },
  );

  it('a plain ~/ path still matches', () => {
    expect(match('cat ~/notes.txt').rule).toBe('cat');
  });
});

describe('recursive readers, however the option is spelled', () => {
  it.each([
    'grep --recur TODO ~',
    'grep --derefer TODO ~',
    'grep -d recurse TODO ~',
    'grep -drecurse TODO /',
    'grep --directories=recurse TODO ~',
    'diff --recur ~ /tmp',
  ])('%s is refused outside a relative subdirectory', (source) => {
    expect(match(source).rule).toBeNull();
  });

  it('a contained recursive read still matches', () => {
    expect(match('grep --recur TODO src').rule).toBe('grep');
  });
});

describe('date only prints', () => {
  it('refuses an operand that sets the clock', () => {
    expect(match('date 01010000').rule).toBeNull();
    expect(match('date -u 0101').rule).toBeNull();
  });

  it('prints a format or a described date, and checks the file of -r', () => {
    expect(match('date +%s').rule).toBe('date');
    expect(match('date -d yesterday +%F').rule).toBe('date');
    const { rule, asked } = match('date -r package.json');
    expect(rule).toBe('date');
    expect(asked.map((a) => a.path)).toEqual(['package.json']);
  });
});

describe('raw devices named for their metadata', () => {
  it.each([
    'ls /dev/sda',
    'ls -l /dev/disk/by-id',
    'lsblk /dev/sda',
    'stat /dev/sda',
    'file /dev/sda',
  ])('%s asks about the device as metadata', (source) => {
    const { rule, asked } = match(source);
    expect(rule).not.toBeNull();
    expect(asked.at(-1)?.use?.deviceMetadata).toBe(true);
  });

  it.each(['file -s /dev/sda', 'file -bs /dev/sda', 'file --special /dev/sda'])(
    '%s reads the device, so it is asked about as content',
    (source) => {
      const { asked } = match(source);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((a) => a.use?.deviceMetadata === false)).toBe(true);
    },
  );

  it('a list of names to read is refused (file -f, --files0-from): no path check sees them', () => {
    for (const source of [
      'file -f /dev/sda',
      'file --files-from names.txt',
      'sort --files0-from=names',
      'sort --files0 names',
      'wc -l --files0-from=names',
      'du --files0-from names',
    ])
      expect(match(source).rule, source).toBeNull();
  });

  it('a redirect into stdin is always a content read (file - < /dev/sda)', () => {
    const { asked } = match('file - < /dev/sda');
    expect(asked[0]).toEqual({ path: '/dev/sda', use: undefined });
  });
});

describe('through the pipeline', () => {
  it.each([
    ['wc -l src/*.ts', 'read-only: wc'],
    ['wc -l ./*.ts', 'read-only: wc'],
    ['ls /dev/sda', 'read-only: ls'],
    ['ls /dev/disk/by-id', 'read-only: ls'],
    ['lsblk /dev/sda', 'read-only: lsblk'],
    ['stat /dev/sda', 'read-only: stat'],
    ['file /dev/sda', 'read-only: file'],
  ])('%s runs unasked', async (command, reason) => {
    const outcome = await decide(command);
    expect(outcome.decision).toBe('allow');
    expect(outcome.reason).toBe(reason);
  });

  it.each(['cat ~/.ss?/id_rsa', 'cat ~/.s*/id_rsa', 'cat */.ssh/id_rsa', 'cat /dev/sda'])(
    '%s is denied by the guard',
    async (command) => {
      const outcome = await decide(command);
      expect(outcome.decision).toBe('deny');
      expect(outcome.verdict.blocked_by).toBe('guard');
    },
  );

  it.each(['ls ~/.ssh', 'stat ~/.ssh/id_rsa'])(
    '%s only names a secret store: a card, never a run without one',
    async (command) => {
      const outcome = await decide(command);
      expect(outcome.decision).toBe('ask');
      expect(outcome.reason).toContain('mentioned but not opened');
    },
  );

  // `ls -- *` where a name could be an option: relative-globs.test.ts.
  it.each([
    'file -s /dev/sda',
    'sgdisk -p /dev/sda',
    'fdisk -l /dev/sda',
    'wipefs /dev/sda',
    'blkid /dev/sda',
    'grep -d recurse TODO ~',
    'date 01010000',
    'cat ~root/.bash_history',
  ])('%s is not auto-allowed', async (command) => {
    const outcome = await decide(command);
    expect(outcome.decision).not.toBe('allow');
  });

  it('with read roots set, a glob is not read-only: it may match a symlink out of the roots', async () => {
    // Only the read-only tier is judged here (another tier may still decide the call).
    const glob = await decide('wc -l src/*.ts', rootedPipeline);
    expect(glob.reason).not.toBe('read-only: wc');
    expect(glob.signals).not.toContain('read-only: wc');
    const literal = await decide('wc -l src/a.ts', rootedPipeline);
    expect(literal.reason).toBe('read-only: wc');
  });
});
