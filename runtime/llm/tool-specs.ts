// The tool list the model sees, derived from the executors' zod schemas: one source.
import { z } from 'zod';
import type { AnyExecutor } from '../../executors/define.ts';
import type { ToolSpec } from './client.ts';

/** ToolSpecs for these executors, with z.toJSONSchema(args) as the parameters. */
export function toolSpecs(executors: Iterable<AnyExecutor>): ToolSpec[] {
  return [...executors].map((executor) => ({
    name: executor.name,
    description: executor.description,
    parameters: z.toJSONSchema(executor.args) as Record<string, unknown>,
  }));
}
