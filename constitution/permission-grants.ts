// Permission changes that hand a system file to someone: a setuid or setgid bit, write access for
// the group or everyone, an owner who is not root, a file capability. `chmod 755
// /usr/local/bin/tool` or `chown root:root /etc/x` take nothing from anyone and are not here.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { operands } from './command-effects.ts';

// Symbolic clause: who, then an operator and the permissions (`u+s`, `go+w`, `a=rwx`, `+s`).
const CLAUSE = /^([ugoa]*)([-+=])([rwxXst]*)$/;

/** A chmod mode that sets setuid/setgid or lets the group or others write. */
export function modeGrants(mode: string): boolean {
  if (/^[0-7]{1,4}$/.test(mode)) {
    const digits = mode.padStart(4, '0');
    const special = Number(digits[0]);
    const group = Number(digits[2]);
    const other = Number(digits[3]);
    return (special & 6) !== 0 || (group & 2) !== 0 || (other & 2) !== 0;
  }
  return mode.split(',').some((clause) => {
    const match = CLAUSE.exec(clause);
    if (match === null) return true; // a mode we cannot read grants until shown otherwise
    const [, who = '', op, perms = ''] = match;
    if (op === '-') return false;
    if (perms.includes('s')) return true;
    return perms.includes('w') && (who === '' || /[goa]/.test(who));
  });
}

/** An owner spec (`user`, `user:group`, `:group`) naming an owner other than root. */
function ownerGrants(spec: string): boolean {
  const [user = ''] = spec.split(/[:.]/);
  return user !== '' && user !== 'root' && user !== '0';
}

/**
 * The files setcap gives capabilities to. Each file follows its own spec (`setcap CAPS a -r b`):
 * `-r` takes b's away, any other spec (caps, `-` for stdin) sets a's. A word known only at run
 * time could be an option that shifts the pairs, so then every operand counts.
 */
function capabilityFiles(args: readonly ShellWord[]): ShellWord[] {
  if (args.some((a) => !a.literal)) return operands(args);
  const files: ShellWord[] = [];
  let spec: 'set' | 'remove' | null = null;
  let rootId = false;
  for (const arg of args) {
    const text = arg.text;
    if (rootId) rootId = false;
    else if (spec === null && text === '-n') rootId = true;
    else if (spec === null && text !== '-r' && text !== '-' && text.startsWith('-')) continue;
    else if (spec === null) spec = text === '-r' ? 'remove' : 'set';
    else {
      if (spec === 'set') files.push(arg);
      spec = null;
    }
  }
  return files;
}

/**
 * The files this command hands to someone, or [] when it hands nothing (a mode that grants
 * nothing, an owner that is root, a file after `setcap -r`, a `--reference` copy of another file's mode).
 */
export function grantedFiles(command: ShellCommand): ShellWord[] {
  const args = command.args;
  const [first, ...rest] = operands(args);
  if (first === undefined || args.some((a) => a.text.startsWith('--reference'))) return [];
  switch (command.binary) {
    case 'chmod':
      return !first.literal || modeGrants(first.text) ? rest : [];
    case 'chown':
      return !first.literal || ownerGrants(first.text) ? rest : [];
    case 'setcap':
      return capabilityFiles(args);
    default:
      return [];
  }
}
