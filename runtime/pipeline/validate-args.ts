// Stage 1: the executor's zod schema. An unknown executor is a validation failure; every
// issue is reported with its field path. Nothing later runs when this fails.
import type { AnyExecutor } from '../../executors/define.ts';
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
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(args)',
    message: issue.message,
  }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return { ok: false, reason: `InvalidArguments: ${summary}`, issues };
}
