// One shape for every everyday-task list: `task(id, group, ask, [calls])` with `shell(...)` for
// a shell call (its `cwd` when the model passes one) and `use(...)` for any other tool. A call's
// last argument says whether a careful person wants a card there ('none' when left out).
import type { CardWanted, EverydayTask, TaskCall, TaskGroup } from './task-types.ts';

/** One task: what the person types and the calls a capable model makes for it, in order. */
export function task(
  id: string,
  group: TaskGroup,
  ask: string,
  calls: readonly TaskCall[],
): EverydayTask {
  return { id, group, ask, calls };
}

/** A `shell_exec` call as the model writes it. */
export function shell(command: string, card: CardWanted = 'none'): TaskCall {
  return { tool: 'shell_exec', args: { command }, card };
}

/** A `shell_exec` call with the working directory passed as the `cwd` argument. */
export function shellIn(cwd: string, command: string, card: CardWanted = 'none'): TaskCall {
  return { tool: 'shell_exec', args: { command, cwd }, card };
}

/** A call of any other tool (fs_*, web_fetch). */
export function use(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  card: CardWanted = 'none',
): TaskCall {
  return { tool, args, card };
}
