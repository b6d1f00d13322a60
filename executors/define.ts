// The shape of one tool. Each executor is one file exporting one definition made with
// defineExecutor(); the registry (index.ts) lists them. The schema the model sees is
// z.toJSONSchema(args): one source.
import type { z } from 'zod';
import type { Config } from '../runtime/config.ts';
import type { Grant } from '../runtime/pipeline/grant.ts';
import type { FsOps } from './ops/fs-ops.ts';
import type { HttpOps } from './ops/http-ops.ts';
import type { ShellOps } from './ops/shell-ops.ts';

/** What an executor touches; check_hints scopes calls against this. */
export interface Capabilities {
  /** read: never changes state; write: changes files; exec: runs processes; network: egress. */
  readonly access: 'read' | 'write' | 'exec' | 'network';
  /** Names of top-level args that hold filesystem paths (checked against the roots). */
  readonly pathArgs: readonly string[];
  /** Name of the arg holding a shell command line (shell_exec). */
  readonly commandArg?: string;
  /** Name of the arg holding a URL (web_fetch). */
  readonly urlArg?: string;
}

export interface ExecutorContext {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  readonly ops: { readonly fs: FsOps; readonly shell: ShellOps; readonly http: HttpOps };
  /**
   * Who allowed this call and what it may touch, as the decision made it: an uncarded tier's
   * grant replaces roots.write with its own list. Executors read it; they never infer it.
   */
  readonly grant: Grant;
}

export interface ExecutorDefinition<Schema extends z.ZodType = z.ZodType, Result = unknown> {
  readonly name: string;
  readonly description: string;
  /**
   * The arguments' schema, each executor's wrapped in z.lazy: it is built on first use, so a
   * start that decides one call builds one schema.
   */
  readonly args: Schema;
  readonly capabilities: Capabilities;
  /** State-mutating: the default policy asks before it runs. */
  readonly critical: boolean;
  /** Default for the operator's skip_judge switch (LLM judges only); true only for read-only ones. */
  readonly skipJudge: boolean;
  run(args: z.infer<Schema>, ctx: ExecutorContext): Promise<Result>;
}

/** Identity helper that gives type inference to an executor definition. */
export function defineExecutor<Schema extends z.ZodType, Result>(
  definition: ExecutorDefinition<Schema, Result>,
): ExecutorDefinition<Schema, Result> {
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyExecutor = ExecutorDefinition<z.ZodType, any>;
