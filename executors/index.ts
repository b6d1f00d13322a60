// The registry: every executor once, as a readonly array and a Map for lookups by
// model-supplied name (never an index into a plain object).
import type { AnyExecutor } from './define.ts';
import { fsDelete } from './fs-delete.ts';
import { fsEdit } from './fs-edit.ts';
import { fsGlob } from './fs-glob.ts';
import { fsGrep } from './fs-grep.ts';
import { fsList } from './fs-list.ts';
import { fsMkdir } from './fs-mkdir.ts';
import { fsMultiEdit } from './fs-multi-edit.ts';
import { fsRead } from './fs-read.ts';
import { fsWrite } from './fs-write.ts';
import { shellExec } from './shell-exec.ts';
import { webFetch } from './web-fetch.ts';

/** All executors, in the order they are offered to the model. */
export const executors: readonly AnyExecutor[] = [
  fsRead,
  fsList,
  fsGrep,
  fsGlob,
  fsWrite,
  fsEdit,
  fsMultiEdit,
  fsMkdir,
  fsDelete,
  shellExec,
  webFetch,
];

/** Executors by name. */
export const executorRegistry: ReadonlyMap<string, AnyExecutor> = new Map(
  executors.map((executor) => [executor.name, executor]),
);
