// The tool list the model sees, derived from the executors' zod schemas: one source.
import * as z from 'zod';
import type { AnyExecutor } from '../../executors/define.ts';
import type { ToolSpec } from './client.ts';

const cache = new WeakMap<ReadonlyMap<string, AnyExecutor>, readonly ToolSpec[]>();

/** The specs of a registry, converted once (toJSONSchema costs ~0.5 ms and runs every step). */
export function toolSpecsOf(registry: ReadonlyMap<string, AnyExecutor>): readonly ToolSpec[] {
  let specs = cache.get(registry);
  if (!specs) {
    specs = toolSpecs(registry.values());
    cache.set(registry, specs);
  }
  return specs;
}

/** ToolSpecs for these executors, with z.toJSONSchema(args) as the parameters. */
export function toolSpecs(executors: Iterable<AnyExecutor>): ToolSpec[] {
  return [...executors].map((executor) => ({
    name: executor.name,
    description: executor.description,
    parameters: z.toJSONSchema(executor.args) as Record<string, unknown>,
  }));
}
