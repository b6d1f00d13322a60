// `gzip -k big.csv`, `xz notes.txt`: each file compressed to FILE.gz (.xz, .bz2) next to it. The
// compressor refuses an output name that exists (no -f here) and skips a symlink as input, so
// nothing is replaced; without -k the input goes, as a move whose content the new file keeps
// (gunzip gives it back). Decompressing, -c to a redirect, -r and -S (another suffix) ask.
import { effects, words, type WorkspaceEffects, type WorkspaceRuleSpec } from './spec.ts';

const LEVELS = ['-1', '-2', '-3', '-4', '-5', '-6', '-7', '-8', '-9', '--fast', '--best'];

function compressor(suffix: string) {
  return (args: readonly string[]): WorkspaceEffects | null => {
    const parsed = words(args, {
      flags: ['-k', '--keep', '-v', '--verbose', '-q', '--quiet', ...LEVELS],
    });
    if (parsed === null || parsed.operands.length === 0) return null;
    const files = parsed.operands;
    if (files.some((file) => file === '-' || file.endsWith('/'))) return null;
    const keep = parsed.values['-k'] === true || parsed.values['--keep'] === true;
    return effects({
      reads: files,
      targets: [
        ...files.map((path) => ({ path: `${path}${suffix}`, mode: 'create' as const })),
        ...(keep ? [] : files.map((path) => ({ path, mode: 'move' as const }))),
      ],
    });
  };
}

/** The compressors, each making FILE<suffix>. */
export const COMPRESSOR_RULES: readonly WorkspaceRuleSpec[] = (
  [
    ['gzip', '.gz'],
    ['xz', '.xz'],
    ['bzip2', '.bz2'],
  ] as const
).map(([binary, suffix]) => ({
  name: binary,
  binary,
  effects: compressor(suffix),
  examples: {
    match: [`${binary} -k big.csv`, `${binary} -9 notes/*.log`],
    no_match: [`${binary} -f big.csv`, `${binary} -d big.csv${suffix}`, `${binary} -c big.csv`],
  },
}));

/** Compressors unlink or skip the name they are given, never what a symlink there leads to. */
export const COMPRESSOR_BINARIES: readonly string[] = COMPRESSOR_RULES.map((rule) => rule.binary);
