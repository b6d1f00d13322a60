// The built-in read-only catalogue: commands that only read, with the flags that would make
// them write or run something taken out. A call whose every command matches one of these (and
// whose paths pass the guard and the scope) runs without an approval card. Each rule carries
// examples that must and must not match; the loader refuses a catalogue whose examples drift.
// The rules live by family in read-only/; this is their one index.
import { AWK_PRINT } from './read-only/awk.ts';
import { FILE_READ_ONLY } from './read-only/files.ts';
import { GIT_READ_ONLY } from './read-only/git.ts';
import { SED_FILTER } from './read-only/sed.ts';
import { SERVICE_READ_ONLY } from './read-only/services.ts';
import type { ReadOnlyRuleSpec } from './read-only/spec.ts';
import { SYSTEM_READ_ONLY } from './read-only/system.ts';
import { TOOLCHAIN_READ_ONLY } from './read-only/toolchains.ts';

export type { ReadOnlyRuleSpec } from './read-only/spec.ts';

/**
 * Readers that recurse into directories and print file contents, with the options that make
 * them recurse (an empty list: always; matched like forbidden flags, so abbreviated and in
 * short clusters too). A directory argument is a promise about every file
 * below it, which a path check on the directory cannot keep (grep -r x ~ reads ~/.ssh), so these
 * are read-only only over relative subdirectories of the working directory.
 */
export const RECURSIVE_READERS: ReadonlyMap<string, readonly string[]> = new Map([
  // -d takes its action as the next word (-d recurse) or attached (-drecurse): any -d counts.
  ['grep', ['-r', '-R', '-d', '--recursive', '--dereference-recursive', '--directories=recurse']],
  ['rg', []],
  ['diff', ['-r', '--recursive']],
  // find names what it walks; -exec/-execdir hand every file below its roots to a reader.
  ['find', ['-exec', '-execdir']],
]);

/** Recursive readers whose first operand is the pattern, not a path (grep PATTERN PATH...). */
export const PATTERN_FIRST: ReadonlySet<string> = new Set(['grep', 'rg']);

/** The built-in rules. Why each one is safe is the rule itself: the flags that are not. */
export const BUILT_IN_READ_ONLY: readonly ReadOnlyRuleSpec[] = [
  ...FILE_READ_ONLY,
  SED_FILTER,
  AWK_PRINT,
  ...SYSTEM_READ_ONLY,
  ...GIT_READ_ONLY,
  ...TOOLCHAIN_READ_ONLY,
  ...SERVICE_READ_ONLY,
];
