// Read-only rules for the shell's own answers and for questions about this host and its
// processes. The flags listed are the ones that would set something instead of printing it.
import { plain, type ReadOnlyRuleSpec } from './spec.ts';

type Spec = ReadOnlyRuleSpec;

/** A process-query rule: with -p and one pid these print; a second operand would change it. */
function pidQuery(binary: string, match: string, noMatch: string, flags: readonly string[]): Spec {
  return {
    ...plain(binary, match, noMatch, { allowed_flags: flags, required_flags: flags, max_args: 1 }),
    name: `${binary} -p`,
  };
}

/** Host, shell and process rules. */
export const SYSTEM_READ_ONLY: readonly Spec[] = [
  plain('df', 'df -h', 'df -h > disks.txt'),
  plain('ps', 'ps aux', 'ps aux > ps.txt'),
  plain('pwd', 'pwd', 'pwd > where.txt'),
  plain('echo', 'echo hello world', 'echo hello > out.txt'),
  plain('printf', 'printf "%s\\n" hi', 'printf hi > out.txt'),
  plain('date', 'date +%Y-%m-%d', 'date -s "2020-01-01"', { forbidden_flags: ['-s', '--set'] }),
  plain('uname', 'uname -a', 'uname -a > u.txt'),
  plain('whoami', 'whoami', 'whoami > me.txt'),
  plain('id', 'id -u', 'id $USER'),
  plain('which', 'which node', 'which $CMD'),
  // env with no command prints the environment; with one it is a wrapper (never matched here).
  plain('env', 'env', 'env -u PATH', { allowed_flags: ['-0', '--null'], max_args: 0 }),
  plain('uptime', 'uptime', 'uptime > u.txt'),
  plain('nproc', 'nproc', 'nproc > n.txt'),
  plain('free', 'free -h', 'free -h > m.txt'),
  plain('lsblk', 'lsblk /dev/sda', 'lsblk > disks.txt'),
  // lscpu -s DIR reads another root's /proc and /sys: a path like any other.
  plain('lscpu', 'lscpu -e', 'lscpu > cpu.txt'),
  plain('lsof', 'lsof -i :3000', 'lsof -i :3000 > l.txt'),
  // hostname NAME sets the host name.
  plain('hostname', 'hostname', 'hostname newname', {
    max_args: 0,
    forbidden_flags: ['-F', '--file', '-b', '--boot'],
  }),
  // command NAME runs NAME; only -v and -V print.
  plain('command', 'command -v mkfs', 'command -p -v x > w.txt', {
    allowed_flags: ['-v', '-V'],
    required_flags: ['-v', '-V'],
  }),
  plain('type', 'type ls', 'type $X'),
  // man -P/-H pick the program that shows the page.
  plain('man', 'man sudo', 'man -P ./x sudo', { allowed_flags: [] }),
  {
    ...plain('killall', 'killall -l', 'killall nginx', {
      allowed_flags: ['-l', '--list', '-V', '--version'],
      required_flags: ['-l', '--list', '-V', '--version'],
      max_args: 0,
    }),
    name: 'killall -l',
  },
  pidQuery('chrt', 'chrt -p 1234', 'chrt -p 5 1234', ['-p', '--pid']),
  pidQuery('taskset', 'taskset -p 1234', 'taskset -p 3 1234', ['-p', '--pid']),
  pidQuery('ionice', 'ionice -p 1234', 'ionice -c3 -p 1234', ['-p']),
];
