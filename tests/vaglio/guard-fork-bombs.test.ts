// An unbounded fork, in the spellings the catastrophic tests leave out: a function that only
// backgrounds itself or only pipes into itself, every way to tell xargs "no bound" fed by every
// producer that never stops, and the neighbours that look alike and stop (a bound, a producer
// that ends, a producer in another pipeline, a function that calls itself in the foreground).
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const FORK_BOMB = 'dangerous shell: fork bomb';

beforeAll(async () => {
  await initShellParser();
});

describe('an unbounded fork is denied', () => {
  it.each([
    'f(){ f & }; f',
    'f(){ f | f; }; f',
    'grow(){ grow | cat & }; grow',
    'yes | xargs -P0 -n1 sh -c true',
    'yes | xargs -P 0 -n1 sh -c true',
    'yes | xargs --max-procs=0 -n1 sleep',
    'yes | xargs --max-procs 0 -n1 sleep',
    'cat /dev/zero | xargs -P0 -n1 true',
    'cat /dev/random | xargs -P0 -n1 true',
    'cat /dev/urandom | tr -dc a-z | xargs -P0 -n1 touch',
    'cat header.txt /dev/zero | xargs -P0 -n1 true',
    'yes | nohup xargs -P0 -n1 sh -c true',
    'while :; do sleep 1 & done',
    "ruby -e 'loop { fork }'",
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(FORK_BOMB);
  });
});

describe('a fork that stops is not a fork bomb', () => {
  it.each([
    'f(){ echo hi; }; f | cat',
    'f(){ f; }; f',
    'yes | xargs -P4 -n1 echo',
    'yes | xargs -P 8 -n1 echo',
    'yes | xargs --max-procs=2 -n1 echo',
    'seq 1 100 | xargs -P0 -n1 echo',
    'cat /dev/null | xargs -P0 -n1 echo',
    'cat list.txt | xargs -P0 -n1 echo',
    'yes > /var/tmp/y & xargs -P0 -n1 echo < list.txt',
    'yes | head -n 1; cat list.txt | xargs -P0 -n1 echo',
    'xargs -P0 -n1 echo < list.txt | yes | head -n 1',
    'yes | head -n 1',
    'while true; do sleep 1; done',
    "python3 -c 'import os; os.fork()'",
    "perl -e 'print for 1..3'",
    'head -c 64 /dev/urandom | xargs -P0 -n1 echo',
    'cat ./dev/zero | xargs -P0 -n1 echo',
    'cat /dev/zero.bak | xargs -P0 -n1 echo',
    'yes | xargs -P01 -n1 echo | head -n 3',
    'seq 3 | xargs -P0 -n1 yes | head -n 5',
    'f(){ ls | wc -l; }; f',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).not.toBe(FORK_BOMB);
  });
});
