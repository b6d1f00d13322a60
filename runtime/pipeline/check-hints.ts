// Stage 2: scope against the executor's declared capabilities and the config. Reasons name
// the rule and the argument's key, never its value (they reach the audit log).
import type { AnyExecutor } from '../../executors/define.ts';
import {
  bareHost,
  isDomainAllowed,
  isPrivateAllowed,
  isPublicAddress,
} from '../../executors/web/address-policy.ts';
import type { Config } from '../config.ts';
import { allowlistViolation } from '../shell/allowlist.ts';
import type { ParsedShell } from '../shell/parse.ts';
import type { CallContext } from '../vaglio/judge.ts';
import type { PathOracle } from './paths.ts';
import type { StageResult } from './types.ts';

export interface ScopeInput {
  readonly executor: AnyExecutor;
  readonly args: Readonly<Record<string, unknown>>;
  readonly context: CallContext;
  readonly config: Config;
  readonly paths: PathOracle;
  /** The parsed command line, for shell executors. */
  readonly shell: ParsedShell | null;
}

const PASS: StageResult = { kind: 'pass' };

function deny(reason: string, signal: string): StageResult {
  return { kind: 'deny', stage: 'scope', reason, signals: [signal] };
}

function checkCapability(input: ScopeInput): StageResult {
  const wanted = input.context.capability;
  if (input.executor.capabilities.access === 'read' && wanted !== undefined && wanted !== 'read') {
    return deny(
      `PermissionDenied: read-only executor ${input.executor.name} asked to ${wanted}`,
      'read-only asked to write',
    );
  }
  return PASS;
}

function checkPaths(input: ScopeInput): StageResult {
  const { access, pathArgs } = input.executor.capabilities;
  const writes = access === 'write';
  const { paths } = input;
  for (const key of pathArgs) {
    const value = input.args[key];
    if (typeof value !== 'string') continue;
    // No file name holds a NUL: the system call would refuse it, and no check can judge it.
    if (value.includes('\0'))
      return deny(`InvalidArguments: argument "${key}" holds a NUL byte`, 'NUL in a path');
    if (!paths.inRoots(paths.absolute(value), writes ? 'write' : 'read')) {
      const which = writes ? 'write' : 'read';
      return deny(
        `PathOutsideBoundary: argument "${key}" is outside the ${which} roots (roots.${which} in config)`,
        `path outside ${which} roots`,
      );
    }
  }
  return PASS;
}

function checkCommand(input: ScopeInput): StageResult {
  const allowlist = input.config.shell.subcommand_allowlist;
  if (input.shell === null || allowlist === undefined) return PASS;
  const violation = allowlistViolation(input.shell, allowlist);
  if (violation === null) return PASS;
  const error = violation.kind === 'command' ? 'CommandNotAllowed' : 'SubcommandNotAllowed';
  return deny(`${error}: ${violation.reason}`, `${violation.kind} not in subcommand_allowlist`);
}

function checkUrl(input: ScopeInput): StageResult {
  const key = input.executor.capabilities.urlArg;
  const value = key === undefined ? undefined : input.args[key];
  if (typeof value !== 'string') return PASS;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return deny(`InvalidArguments: argument "${key}" is not a URL`, 'not a url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return deny('DomainNotAllowed: only http and https URLs can be fetched', 'scheme not allowed');
  }
  const host = bareHost(url);
  const web = input.config.web;
  if (!isDomainAllowed(host, web.domain_allowlist)) {
    return deny('DomainNotAllowed: host is not in web.domain_allowlist', 'domain not allowed');
  }
  // Names are resolved and checked by web_fetch at every hop; here only what the text shows.
  const local = host === 'localhost' || host.endsWith('.localhost');
  // node:net loads only for a call that names a host. An address is digits and dots or holds a
  // colon: a name answers without isIPv6's long pattern (tens of µs when it fails to match).
  const literal =
    (/^[\d.]+$/.test(host) || host.includes(':')) &&
    process.getBuiltinModule('node:net').isIP(host) !== 0;
  const nonPublic = local || (literal && !isPublicAddress(host));
  if (nonPublic && !isPrivateAllowed(host, literal ? host : '127.0.0.1', web.private_allowlist)) {
    return deny(
      'DomainNotAllowed: loopback, private and link-local addresses are refused (web.private_allowlist in config)',
      'non-public address',
    );
  }
  return PASS;
}

const checks = [checkCapability, checkPaths, checkCommand, checkUrl] as const;

/** check_hints: the first scope violation, or pass. */
export function checkHints(input: ScopeInput): StageResult {
  for (const check of checks) {
    const result = check(input);
    if (result.kind !== 'pass') return result;
  }
  return PASS;
}
