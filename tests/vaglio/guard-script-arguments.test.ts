// A wipe whose target reaches the deleter as an argument of the script it sits in: `sh -c
// SCRIPT NAME ARGS…` makes NAME the script's $0 and ARGS its $1 … (also "$@" and "$*"), and a
// listing's output (`$(ls ~)`) handed on as arguments is the listed tree's entries. And the
// neighbours that pass the guard: the same scripts given a build directory. Commands written
// here, under a home outside /home.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const WIPE = 'dangerous shell: recursive delete of / or a home or system tree';

beforeAll(async () => {
  await initShellParser();
});

describe("a shell script's arguments are the values of its $0, $1 … and $@", () => {
  it.each([
    `sh -c 'rm -rf "$1"' _ ~`,
    `bash -c 'rm -rf "$0"' ~`,
    `bash -c 'rm -rf "$0"' /`,
    `dash -c 'rm -fr -- "$2"' x ./build /data/ada`,
    `bash -xc 'rm -rf "$@"' _ ~/*`,
    `sh -c 'rm -rf "$*"' _ "$HOME"`,
    `sh -c 'rm -rf "$@"' _ $(ls ~)`,
    `sh -c 'rm -rf "$1"/*' _ ~`,
    `sudo sh -c 'rm -rf "$1"' _ /`,
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe("a listing's entries handed on as positional parameters", () => {
  it.each([
    'set -- $(ls ~); rm -rf "$@"',
    'set -- $(ls -A ~); rm -rf $@',
    'set -- $(ls -1a /); rm -rf "$@"',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe('the same scripts given something else are not wipes', () => {
  it.each([
    `sh -c 'rm -rf "$1"' _ ./build`,
    `bash -c 'rm -rf "$0"' ./dist`,
    `bash -c 'rm -rf "$@"' _ ~/project/build ~/project/dist`,
    `sh -c 'echo "$1"' _ ~`,
    `sh -c 'ls "$1"' _ /`,
    'set -- $(ls ./dist); rm -rf "$@"',
    'set -- $(ls -l ~); echo "$@"',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).not.toBe(WIPE);
  });
});
