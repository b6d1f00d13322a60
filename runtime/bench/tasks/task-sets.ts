// Every everyday-task set, in the order `custode eval-tasks` replays and reports them.
import type { TaskSet } from './report.ts';
import { freshTasks } from './task-list-fresh.ts';
import { fifthTasks } from './task-list-fifth.ts';
import { fourthTasks } from './task-list-fourth.ts';
import { thirdTasks } from './task-list-third.ts';
import { everydayTasks } from './task-list.ts';

/**
 * The first set, tuned against since 2026-11-23; the fresh set, written before tuning on
 * 2026-11-25 and tuned against since; the third, written before tuning on 2026-11-26 and tuned
 * against in session 5; the fourth, written before tuning in session 6 and tuned against there;
 * the fifth, written before tuning in session 7 (2026-11-26).
 */
export const taskSets: readonly TaskSet[] = [
  { name: 'first (46, tuned against)', tasks: everydayTasks },
  { name: 'fresh (39, written 2026-11-25, tuned against)', tasks: freshTasks },
  { name: 'third (48, written 2026-11-26, tuned against)', tasks: thirdTasks },
  { name: 'fourth (48, written 2026-11-26 s6, tuned against)', tasks: fourthTasks },
  { name: 'fifth (written 2026-11-26 s7, before tuning)', tasks: fifthTasks },
];
