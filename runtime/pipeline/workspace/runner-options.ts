// Runner options the model may not pick without a card: those that name a program or module the
// tool loads, or a file or directory it writes over or clears (runners.ts applies them).

/**
 * Options a tool takes that name a program or module it loads, or a file or directory it writes
 * over or clears: the model picks them, not the project (pytest --basetemp=src deletes src,
 * --junitxml=src/app.py overwrites it). Long names are compared without dashes, underscores, dots
 * or case (tsc's --outfile, jest's --output-file, vitest's --outputFile.json); `pattern` catches
 * what a name cannot: a short option with its value attached or ending a cluster (-pmod, -qo x).
 */
interface Refused {
  readonly names: readonly string[];
  readonly pattern?: RegExp;
}

const PYTEST: Refused = {
  names: [
    'p',
    'pdbcls',
    'o',
    'overrideini',
    'basetemp',
    'junitxml',
    'resultlog',
    'reportlog',
    'debug',
    'logfile',
    'covreport',
    'html',
    'jsonreportfile',
  ],
  pattern: /^-[A-Za-z]*[po]/,
};

// Python linters, type checkers and formatters: where they write reports, caches and output, and
// what loads or runs other code (pylint's --load-plugins and --init-hook, mypy's plugins).
const PYTHON_LINT: Refused = {
  names: ['o'],
  pattern: /^--?[\w-]*(?:report|output|cache|plugin|hook|exec)/i,
};

/** By tool: npx names it first, the rules below by binary. */
const REFUSED: ReadonlyMap<string, Refused> = new Map([
  ['pytest', PYTEST],
  ['python-lint', PYTHON_LINT],
  // -overlay swaps source files for any others; a linker named inside -ldflags, in any word.
  [
    'go',
    {
      names: [
        'exec',
        'toolexec',
        'vettool',
        'compiler',
        'overlay',
        'o',
        'outputdir',
        'coverprofile',
        'cpuprofile',
        'memprofile',
        'blockprofile',
        'mutexprofile',
        'trace',
        'modfile',
        'pkgdir',
      ],
      pattern: /-ext(?:ld|ar)|-linkmode/,
    },
  ],
  // --config sets build.rustc-wrapper or a target runner; -Z unstable ones; libtest's --logfile.
  ['cargo', { names: ['config', 'z', 'open', 'logfile'], pattern: /^-[A-Za-z]*Z/ }],
  [
    'tsc',
    {
      names: [
        'outfile',
        'out',
        'outdir',
        'declarationdir',
        'tsbuildinfofile',
        'generatetrace',
        'generatecpuprofile',
      ],
    },
  ],
  ['eslint', { names: ['o', 'outputfile', 'cachelocation'] }],
  ['prettier', { names: ['cachelocation'] }],
  ['vitest', { names: ['outputfile', 'u', 'update', 'coveragereportsdirectory', 'clearcache'] }],
  [
    'jest',
    {
      names: [
        'outputfile',
        'cachedirectory',
        'clearcache',
        'coveragedirectory',
        'u',
        'updatesnapshot',
      ],
    },
  ],
]);

/** Every tool's: the words a package script passes on (`npm test -- ...`) reach a tool unnamed. */
const ANY_TOOL: Refused = {
  names: [...REFUSED.values()].flatMap((tool) => tool.names),
  pattern: new RegExp(
    [...REFUSED.values()].flatMap((tool) => tool.pattern?.source ?? []).join('|'),
  ),
};

const squash = (name: string): string => name.toLowerCase().replace(/[-_.]/g, '');

/**
 * The last word of an option's name that says it names a place the tool writes (`--target-dir`,
 * `--artifact-dir`, `--manifest-path`, `--outDir`, `--log-file`, `--junit-xml`, `--output`,
 * `--prefix`, `--root`, `--dest`), and words that say it clears one (`--cache-clear`, `--clean`):
 * any tool's, since the lists above will always trail new options. `--profile` names a build
 * profile, `--target` a platform: neither is a place.
 */
const PLACE_WORD =
  /^(?!profiles?$)(?:\w*(?:dir|directory|directories|path|paths|file|files|folder|temp|tmp|root|location|xml)|out|output|prefix|dest|destination)$/i;
const CLEARS = /^(?:clear|clean|purge|wipe)/i;

/** True for an option word whose name says it names a place the tool writes or clears. */
function namesAPlace(word: string): boolean {
  if (!word.startsWith('-')) return false;
  const name = word.replace(/^-+/, '').split('=')[0] ?? '';
  const words = name.split(/[-_.]+|(?<=[a-z])(?=[A-Z])/).filter((each) => each !== '');
  const last = words.at(-1);
  return (last !== undefined && PLACE_WORD.test(last)) || words.some((each) => CLEARS.test(each));
}

function refusedBy(tool: Refused | undefined) {
  return (word: string): boolean => {
    if (namesAPlace(word)) return true;
    if (tool === undefined) return false;
    if (tool.pattern?.test(word) === true) return true;
    const name = word.startsWith('-') ? (word.replace(/^-+/, '').split('=')[0] ?? '') : '';
    return [name, name.split('.')[0] ?? ''].some((n) => n !== '' && tool.names.includes(squash(n)));
  };
}

/** True for a word that is one of the named tool's refused options, or names a place any tool writes. */
export function refusedOption(tool: string): (word: string) => boolean {
  return refusedBy(REFUSED.get(tool));
}

/** True for a word that any tool here refuses: for words a package script passes on unnamed. */
export const refusedByAnyTool = refusedBy(ANY_TOOL);
