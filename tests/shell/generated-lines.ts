// A seeded generator of shell lines made of `pr` commands whose words mix every way of spelling
// text: quotes of all kinds, escapes, line continuations, variables, tildes, braces, comments,
// redirections. The same seed gives the same lines on every machine.

/** mulberry32: a small, well-known seeded PRNG (deterministic across runs and platforms). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Pick = <T>(items: readonly T[]) => T;

const PLAIN = [...'abcxyz019/.-_:=@%+,^'];
const ESCAPED = [...' abn\'"$\\#~*?{}[]|&;<>()`!=/.\t'];
const SINGLE = [...'ab $"\\`#~*{}\t/.'];
const SINGLE_EXTRA = ['\\\n', '\n', "\\'"];
const DOUBLE = [..."ab #~*{}'/."];
const DOUBLE_EXTRA = ['\\$', '\\"', '\\\\', '\\n', '\\\n', '\\a', '$A', '${B}', '\n', '$', '\\'];
const ANSI = [
  'a',
  '\\n',
  '\\t',
  '\\x41',
  '\\x2f',
  "\\'",
  '\\\\',
  '\\101',
  '\\u00e9',
  '\\cA',
  '\\c?',
  '\\q',
  '\\"',
  '\\e',
  ' ',
  '\\\n',
  '\\0',
  '\\x7',
  '"',
];
const VARIABLES = ['$A', '${A}', '"$A"', '${B}', '"${B}"', '$A$B'];
const SPECIAL = [
  '{x,y}',
  '{1..3}',
  '*',
  '?',
  '[ab]',
  '$(echo hi)',
  '`echo hi`',
  '$((1+2))',
  '~',
  '~/',
  '~+',
  '${A:-z}',
  '$1',
];
const LEADING_TILDE = [
  '~',
  '~/',
  '~/x',
  '~"/x"',
  "'~'/x",
  '\\~/x',
  '~+',
  '~root/x',
  '~A',
  'x=~/y',
  'x=a:~/y',
  '--x=~/y',
];

function piece(pick: Pick, chance: () => number): string {
  const roll = chance();
  if (roll < 0.25) return pick(PLAIN) + pick(PLAIN);
  if (roll < 0.37) return `\\${pick(ESCAPED)}`;
  if (roll < 0.5) return `'${run(pick, chance, SINGLE, SINGLE_EXTRA)}'`;
  if (roll < 0.65) return `"${run(pick, chance, DOUBLE, DOUBLE_EXTRA)}"`;
  if (roll < 0.73)
    return `$'${Array.from({ length: 1 + Math.floor(chance() * 3) }, () => pick(ANSI)).join('')}'`;
  if (roll < 0.76) return `$"${run(pick, chance, DOUBLE, DOUBLE_EXTRA)}"`;
  if (roll < 0.84) return pick(VARIABLES);
  if (roll < 0.92) return '\\\n';
  if (roll < 0.95) return '#';
  return pick(SPECIAL);
}

function run(
  pick: Pick,
  chance: () => number,
  chars: readonly string[],
  extra: readonly string[],
): string {
  const length = Math.floor(chance() * 4);
  return Array.from({ length }, () => (chance() < 0.3 ? pick(extra) : pick(chars))).join('');
}

function word(pick: Pick, chance: () => number): string {
  const head = chance() < 0.06 ? pick(LEADING_TILDE) : '';
  const count = 1 + Math.floor(chance() * 3);
  return head + Array.from({ length: count }, () => piece(pick, chance)).join('');
}

const NAMES = ['pr', "'pr'", '"pr"', '\\pr', 'p\\\nr', "p'r'", 'pr\\\n'];
const GAPS = [' ', ' ', ' ', '\t', ' \\\n', '\\\n ', ' \\\n  '];
const SEPARATORS = ['; ', ' && ', '\n', ';\\\n', ' &&\\\n'];
const REDIRECTS = ['2>/dev/null', '>/dev/null', '</dev/null', '2>&1'];

function command(pick: Pick, chance: () => number): string {
  const parts = [pick(NAMES)];
  const count = Math.floor(chance() * 4);
  for (let i = 0; i < count; i += 1) {
    parts.push(pick(GAPS));
    parts.push(chance() < 0.08 ? pick(REDIRECTS) : word(pick, chance));
  }
  return parts.join('');
}

/** `count` generated lines of one to three `pr` commands each, the same for the same seed. */
export function generatedLines(seed: number, count: number): string[] {
  const chance = seeded(seed);
  const pick: Pick = (items) =>
    items[Math.floor(chance() * items.length)] as (typeof items)[number];
  return Array.from({ length: count }, () => {
    const commands = Array.from({ length: 1 + Math.floor(chance() * 3) }, () =>
      command(pick, chance),
    );
    return commands.reduce((line, next) => `${line}${pick(SEPARATORS)}${next}`);
  });
}
