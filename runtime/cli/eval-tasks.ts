// `custode eval-tasks [--only id,id] [--verbose] [--keep]` (npm run eval:tasks): the everyday
// tasks replayed through the real chat with a scripted model, every card answered "once";
// prints cards shown against cards wanted. Exits 1 when a must-ask call ran without a card.
import { replayTask, type TaskResult } from '../bench/tasks/replay.ts';
import { formatReport, totalsOf } from '../bench/tasks/report.ts';
import { startScriptedOpenAi } from '../bench/tasks/scripted-openai.ts';
import { taskSets } from '../bench/tasks/task-sets.ts';
import { parseCommand, type CliIo, type CommandSpec } from './io.ts';

export const spec = {
  usage: 'custode eval-tasks [--only id,id] [--verbose] [--keep]',
  details: [
    '--only ids      replay only these tasks (comma-separated ids)',
    '--verbose       list every call, not only those that differ from what is wanted',
    "--keep          keep each task's fixture HOME under /var/tmp and print its path",
  ],
  options: {
    only: { type: 'string' },
    verbose: { type: 'boolean' },
    keep: { type: 'boolean' },
  },
} satisfies CommandSpec;

/** Run `custode eval-tasks`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(argv, spec);
  const only = values.only?.split(',');
  const tasks = taskSets
    .flatMap((set) => set.tasks)
    .filter((task) => only === undefined || only.includes(task.id));
  if (tasks.length === 0) {
    io.stderr.write(`custode eval-tasks: no task matches --only ${values.only ?? ''}\n`);
    return 2;
  }
  const keepHome = values.keep === true;
  io.stdout.write(
    `Everyday tasks: ${String(tasks.length)} replayed through the real chat (openai wire, scripted model, default config, bubblewrap sandbox), every card answered "once"\n`,
  );
  const server = await startScriptedOpenAi();
  const results: TaskResult[] = [];
  try {
    for (const task of tasks) {
      const result = await replayTask(task, server, { keepHome });
      if (keepHome) io.stdout.write(`  ${task.id}: HOME kept at ${result.home}\n`);
      results.push(result);
    }
  } finally {
    await server.close();
  }
  io.stdout.write(`${formatReport(results, values.verbose === true, taskSets)}\n`);
  return totalsOf(results).silentMustAsk === 0 ? 0 : 1;
}
