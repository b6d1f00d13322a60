// Permission changes that hand a system file to someone: a setuid or setgid bit, write access for
// the group or everyone, an owner who is not root, a file capability. `chmod 755
// /usr/local/bin/tool` or `chown root:root /etc/x` take nothing from anyone and are not here.
import type { ShellCommand, ShellWord } from '../runtime/shell/types.ts';
import { hasFlag, operands } from './command-effects.ts';

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
 * The files this command hands to someone, or [] when it hands nothing (a mode that grants
 * nothing, an owner that is root, `setcap -r`, a `--reference` copy of another file's mode).
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
      return hasFlag(args, 'r', []) ? [] : rest;
    default:
      return [];
  }
}
