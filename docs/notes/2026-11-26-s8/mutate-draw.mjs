// The sampled mutation estimate's draw (issue 15, session 8): 40 random 5-line ranges over the
// safety core (stryker.config.mjs SAFETY_CORE), weighted by file length (a line drawn uniformly
// among all the core's lines starts each range), seed fixed. Prints Stryker's --mutate list.
//   node docs/notes/2026-11-26-s8/mutate-draw.mjs [seed] [ranges] [commit]
// The draw of session 8: seed 20261126, 40 ranges, commit e13dad8 (line numbers are that commit's).
import { execFileSync } from 'node:child_process';
import { SAFETY_CORE } from '../../../stryker.config.mjs';

const seed = Number(process.argv[2] ?? 20261126);
const count = Number(process.argv[3] ?? 40);
const commit = process.argv[4] ?? 'HEAD';
const WIDTH = 5;

/** mulberry32: a small seeded generator, the same sequence on every machine. */
function generator(state) {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const files = execFileSync('git', ['ls-tree', '-r', '--name-only', commit], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => SAFETY_CORE.some((re) => re.test(file)))
  .sort()
  .map((file) => ({
    file,
    lines: execFileSync('git', ['show', `${commit}:${file}`], { encoding: 'utf8' }).split('\n')
      .length,
  }));
const total = files.reduce((sum, f) => sum + f.lines, 0);
const random = generator(seed);
const taken = new Map();
const ranges = [];
while (ranges.length < count) {
  let at = Math.floor(random() * total);
  const { file, lines } = files.find((f) => (at < f.lines ? true : ((at -= f.lines), false)));
  const start = at + 1;
  const end = Math.min(start + WIDTH - 1, lines);
  const used = taken.get(file) ?? [];
  if (used.some(([a, b]) => start <= b && a <= end)) continue;
  taken.set(file, [...used, [start, end]]);
  ranges.push(`${file}:${start}-${end}`);
}
console.error(
  `${files.length} files, ${total} lines, seed ${seed}, ${count} ranges of ${WIDTH} lines`,
);
console.log(ranges.sort().join(','));
