// Stage 1: the executor's zod schema. An unknown executor is a validation failure; every
// issue is reported with its field path. Nothing later runs when this fails.
import * as z from 'zod';
import type { AnyExecutor } from '../../executors/define.ts';
import { keysOf } from '../log/audit-log.ts';
import type { ValidationIssue } from './types.ts';

export type Validation =
  | { readonly ok: true; readonly executor: AnyExecutor; readonly args: unknown }
  | { readonly ok: false; readonly reason: string; readonly issues: readonly ValidationIssue[] };

/** Look the executor up (Map only: model-supplied names) and parse the args strictly. */
export function validateArgs(
  registry: ReadonlyMap<string, AnyExecutor>,
  executorName: unknown,
  args: unknown,
): Validation {
  if (typeof executorName !== 'string' || !registry.has(executorName)) {
    const issue = { path: 'executor', message: 'unknown executor' };
    return {
      ok: false,
      reason: `InvalidArguments: unknown executor (known: ${[...registry.keys()].join(', ')})`,
      issues: [issue],
    };
  }
  const executor = registry.get(executorName) as AnyExecutor;
  const parsed = executor.args.safeParse(args);
  if (parsed.success) return { ok: true, executor, args: parsed.data };
  // A key is text the model chose: the message names the keys the tool takes, not the ones given
  // (the reason is written to the audit log, which holds no value).
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(args)',
    message:
      issue.code === 'unrecognized_keys'
        ? `unrecognized key; ${executorName} takes only ${argKeys(executor).join(', ')}`
        : issue.message,
  }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return { ok: false, reason: `InvalidArguments: ${summary}`, issues };
}

const argKeysCache = new WeakMap<AnyExecutor, readonly string[]>();

/** The argument keys an executor's schema takes. */
export function argKeys(executor: AnyExecutor): readonly string[] {
  const cached = argKeysCache.get(executor);
  if (cached !== undefined) return cached;
  const schema = z.toJSONSchema(executor.args) as { properties?: Record<string, unknown> };
  const keys = Object.keys(schema.properties ?? {});
  argKeysCache.set(executor, keys);
  return keys;
}

/**
 * The executor and argument keys an audit line names. A tool name or key the registry and the
 * schema do not know is text the model chose, not a name: it is left out.
 */
export function auditedCall(
  registry: ReadonlyMap<string, AnyExecutor>,
  call: { readonly executor: unknown; readonly args: unknown },
  validated: boolean,
): { executor: string; args_keys: string[] } {
  const name = typeof call.executor === 'string' ? call.executor : '';
  const executor = registry.get(name);
  if (executor === undefined) return { executor: '(unknown)', args_keys: [] };
  const keys = keysOf(call.args);
  const known = argKeys(executor);
  return { executor: name, args_keys: validated ? keys : keys.filter((k) => known.includes(k)) };
}
