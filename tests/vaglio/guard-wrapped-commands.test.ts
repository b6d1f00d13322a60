// A destructive command behind a command that only runs another one (sudo, env, nice, timeout,
// flock, chrt …), with each way of writing the wrapper's options, is judged as that command; the
// same words after an option that makes the wrapper run nothing (sudo -l, command -v, ionice -p)
// are not a run. A wrapper's positional word known only at run time (timeout "$T", chroot "$R")
// still runs the command after it. Commands written here, under a home outside /home.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';
const WIPE = 'dangerous shell: recursive delete of / or a home or system tree';

beforeAll(async () => {
  await initShellParser();
});

describe('a wipe behind a wrapper is denied', () => {
  it.each([
    'sudo -u bob rm -rf /',
    'sudo --user bob rm -rf ~',
    'sudo --user=bob rm -rf /',
    'sudo -ubob rm -rf /',
    'sudo -E rm -rf /',
    'sudo -- rm -rf /',
    'doas -u root rm -rf /',
    'env -i FOO=1 rm -rf ~',
    'env -u PATH rm -rf /',
    'env --chdir /tmp rm -rf /',
    'env -S "rm -rf /"',
    'env --split-string="rm -rf /"',
    'env --split-string "rm -rf /"',
    '$"sudo" rm -rf /',
    '$"timeout" 5 rm -rf /',
    'env -S "rm -rf \\"/\\""',
    'nice -n 5 rm -rf /',
    'nice -n5 rm -rf /',
    'nice --adjustment 5 rm -rf /',
    'timeout 5 rm -rf /',
    'timeout -s KILL 5 rm -rf ~',
    'timeout -k 1 5 rm -rf /',
    'timeout --signal KILL 5 rm -rf /',
    'timeout --signal=KILL 5 rm -rf /',
    'busybox rm -rf /',
    'command rm -rf /',
    'exec -a x rm -rf /',
    'stdbuf -o 0 rm -rf /',
    'ionice -c 3 rm -rf /',
    'chroot --userspec bob / rm -rf /',
    'time -f x rm -rf /',
    'watch -n 5 rm -rf /',
    'proxychains -f x rm -rf /',
    'flock -w 5 /tmp/l rm -rf /',
    'flock /tmp/l -c "rm -rf /"',
    'flock --command="rm -rf /" /tmp/l',
    'unshare --wd /tmp rm -rf /',
    'taskset 0x1 rm -rf /',
    'chrt 5 rm -rf /',
    'su -c "rm -rf /"',
    'su --command "rm -rf /"',
    'script -qc "rm -rf ~"',
    'eval rm -rf "$HOME"',
    'bash -o pipefail -c "rm -rf /"',
    'bash -xc "rm -rf /"',
    'bash --norc -c "rm -rf /"',
    'bash -O extglob -c "rm -rf /"',
    'bash +o posix -c "rm -rf /"',
    'bash +O extglob -c "rm -rf /"',
    'sudo nice -n 5 timeout 9 rm -rf /',
    'timeout -- 5 rm -rf /',
    'chroot -- / rm -rf /',
    'eval "rm -rf $(echo /)"',
    'bash -c "rm -rf $(echo /)"',
    '/usr/bin/sudo rm -rf /',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe("a wrapper's positional word known only at run time still runs the command after it", () => {
  it.each([
    'timeout "$T" rm -rf /',
    'timeout "$DURATION" rm -rf ~',
    'chroot "$ROOT" rm -rf /',
    'flock "$LOCK" rm -rf /',
    'taskset "$MASK" rm -rf /',
    'chrt $(nproc) rm -rf /',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe("a wrapper's run-time word may expand to an option and its value: every later word may be the command", () => {
  it.each([
    'timeout "$OPTS" 5 rm -rf /',
    'timeout $OPTS 5 rm -rf ~',
    'chroot "$OPTS" / rm -rf /',
    'flock "$OPTS" /tmp/l rm -rf /',
    'taskset "$OPTS" 0x1 rm -rf /',
    'chrt "$OPTS" 5 rm -rf /',
    'nice "$N" 5 rm -rf /',
    'stdbuf "$O" 0 rm -rf ~',
    'sudo "$U" bob rm -rf /',
    'sudo "$U" timeout "$T" 5 rm -rf ~',
    'timeout "$A" "$B" 5 rm -rf /',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe(WIPE);
  });
});

describe('many nested wrappers with run-time words', () => {
  it('read each later word as a command once, the last one included', () => {
    const line = `${'timeout "$T" '.repeat(60)}5 rm -rf /`;
    const parsed = parseShell(line);
    expect(parsed.commands.length).toBeLessThanOrEqual(line.split(' ').length);
    expect(reasonOf(guardShell(line, home))).toBe(WIPE);
  });
});

describe('the same words where nothing runs them pass the guard', () => {
  it.each([
    'sudo -l rm -rf /',
    'sudo -nl rm -rf /',
    'sudo --list rm -rf /',
    'busybox --list rm -rf /',
    'command -v rm -rf /',
    'ionice -p 1 rm -rf /',
    'ionice -c3 -p 1 rm -rf /',
    'taskset -p 1 rm -rf /',
    'chrt -p 5 rm -rf /',
    // bash runs the script file x.sh; -c and its text are that script's arguments.
    'bash x.sh -c "rm -rf /"',
    'bash run-check "rm -rf /"',
    // bash -e runs the file named by the next word: no -c, no script text.
    'bash -e "rm -rf /"',
  ])('%s', (command) => {
    expect(reasonOf(guardShell(command, home))).toBe('PASS');
  });
});
