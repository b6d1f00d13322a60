// Always-allow rules, per sender, persisted in one versioned JSON file. Each rule is as
// narrow as makes sense: a shell binary + subcommand, a directory for file tools, a host
// for fetches. The pipeline runs the guard before it consults a rule, so no rule can
// let a forbidden call through.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { AnyExecutor } from '../../executors/define.ts';
import { resolvePath } from '../../executors/resolve-path.ts';
import { executorRegistry } from '../../executors/index.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { homeDir } from '../paths.ts';
import { initShellParser } from '../shell/parse.ts';
import { commandLine } from '../shell/command-line.ts';
import type { ProposedCall } from '../pipeline/types.ts';
import type { AllowRule, RuleStore } from './types.ts';
import {
  fileStamp,
  readJsonFile,
  readTextFileSync,
  safeJson,
  writeFileAtomic,
} from '../state-store.ts';
import { withFileLock } from '../state-lock.ts';
import { classOf, displayPath, hostOf, pathsOf, stringArg } from './describe-call.ts';
import { exactShellScope, shellScopeCovers } from './shell-scope.ts';
import { isUnder } from '../vaglio/normalize-path.ts';
import { visibleLine } from './visible-text.ts';

const ruleSchema = z.strictObject({
  v: z.literal(1),
  sender: z.string().min(1),
  executor: z.string().min(1),
  scope: z.strictObject({
    binary: z.string().min(1).optional(),
    subcommand: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    cwd: z.string().startsWith('/').optional(),
    dirPrefix: z.string().startsWith('/').optional(),
    host: z.string().min(1).optional(),
  }),
  description: z.string(),
  createdAt: z.iso.datetime(),
});

/** The rules file (v: 1). */
export const rulesFileSchema = z.strictObject({ v: z.literal(1), rules: z.array(ruleSchema) });

function parentDir(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function sameScope(a: AllowRule, b: AllowRule): boolean {
  return (
    a.sender === b.sender &&
    a.executor === b.executor &&
    a.scope.binary === b.scope.binary &&
    a.scope.subcommand === b.scope.subcommand &&
    JSON.stringify(a.scope.args) === JSON.stringify(b.scope.args) &&
    a.scope.cwd === b.scope.cwd &&
    a.scope.dirPrefix === b.scope.dirPrefix &&
    a.scope.host === b.scope.host
  );
}

/** The command line of a shell call, if it has one. */
function commandOf(executor: AnyExecutor, call: ProposedCall): string | undefined {
  const key = executor.capabilities.commandArg;
  return key === undefined ? undefined : stringArg(call.args, key);
}

/** Where a shell call runs: its cwd argument, resolved, or the home directory. */
function workingDirectory(call: ProposedCall, env: NodeJS.ProcessEnv): string {
  return resolvePath(stringArg(call.args, 'cwd') ?? '~', env);
}

/** The scope a call would need, with its wording; null when no narrow scope exists. */
function scopeFor(
  executor: AnyExecutor,
  call: ProposedCall,
  env: NodeJS.ProcessEnv,
): { scope: AllowRule['scope']; wording: string } | null {
  const { capabilities } = executor;
  switch (classOf(executor, call.executor)) {
    case 'shell': {
      const command = commandOf(executor, call);
      const exact = command === undefined ? null : exactShellScope(command);
      if (exact === null) return null;
      const cwd = workingDirectory(call, env);
      const words = commandLine([exact.binary, ...(exact.args ?? [])]);
      return {
        scope: { binary: exact.binary, args: [...(exact.args ?? [])], cwd },
        wording: `\`${words}\` exactly, in ${displayPath(cwd, homeDir(env))}`,
      };
    }
    case 'files': {
      const dirs = new Set(pathsOf(executor, call.args, env).map(parentDir));
      const [dir] = dirs;
      // The home directory itself (or anything above it) is not a narrow scope: ~/.bashrc lives there.
      const home = homeDir(env);
      if (dirs.size !== 1 || dir === undefined || dir === '/' || isUnder(home, dir)) return null;
      return {
        scope: { dirPrefix: dir },
        wording: `${call.executor} in ${displayPath(dir, homeDir(env))}/ and below`,
      };
    }
    case 'web': {
      const host = hostOf(
        capabilities.urlArg === undefined ? undefined : stringArg(call.args, capabilities.urlArg),
      );
      return host === null ? null : { scope: { host }, wording: `${call.executor} from ${host}` };
    }
    case 'other':
      return null;
  }
}

function covers(
  rule: AllowRule,
  executor: AnyExecutor,
  call: ProposedCall,
  env: NodeJS.ProcessEnv,
): boolean {
  const { capabilities } = executor;
  switch (classOf(executor, call.executor)) {
    case 'shell': {
      const command = commandOf(executor, call);
      const { binary, subcommand, args, cwd } = rule.scope;
      if (command === undefined || binary === undefined) return false;
      if (cwd !== undefined && cwd !== workingDirectory(call, env)) return false;
      return shellScopeCovers(
        {
          binary,
          ...(subcommand === undefined ? {} : { subcommand }),
          ...(args === undefined ? {} : { args }),
        },
        command,
      );
    }
    case 'files': {
      const { dirPrefix } = rule.scope;
      const paths = pathsOf(executor, call.args, env);
      return (
        dirPrefix !== undefined && paths.length > 0 && paths.every((p) => isUnder(p, dirPrefix))
      );
    }
    case 'web': {
      const host = hostOf(
        capabilities.urlArg === undefined ? undefined : stringArg(call.args, capabilities.urlArg),
      );
      return host !== null && host === rule.scope.host;
    }
    case 'other':
      return false;
  }
}

/**
 * The rule store over `dir`/rules.json. A corrupt file is moved aside (never overwritten)
 * and reported; the store then starts empty.
 */
export async function createRuleStore(
  dir: string,
  options: {
    logger?: Logger;
    env?: NodeJS.ProcessEnv;
    executors?: ReadonlyMap<string, AnyExecutor>;
  } = {},
): Promise<RuleStore> {
  const logger = options.logger ?? createLogger();
  const env = options.env ?? process.env;
  const registry = options.executors ?? executorRegistry;
  const file = join(dir, 'rules.json');
  await initShellParser();

  const read = await readJsonFile(file, rulesFileSchema);
  if (read.kind === 'corrupt') {
    const aside = `${file}.corrupt-${String(Date.now())}`;
    await rename(file, aside);
    logger.warn(
      { file, movedTo: aside, issues: read.issues },
      'corrupt always-allow rules file moved aside; starting with no rules',
    );
  }

  // The file is the truth (a terminal chat and the daemon share it): re-read whenever it
  // changed, and changed only under its lock, re-read inside it.
  let cached = { stamp: '', rules: [] as AllowRule[] };
  let reported = false;
  function current(): AllowRule[] {
    const stamp = fileStamp(file);
    if (stamp === cached.stamp) return cached.rules;
    const text = readTextFileSync(file);
    const parsed = text === null ? null : rulesFileSchema.safeParse(safeJson(text));
    // A file damaged while running grants nothing (fail closed) until it is fixed.
    if (parsed?.success === false && !reported)
      logger.error({ file }, 'always-allow rules file is corrupt; no rule applies until fixed');
    reported = parsed?.success === false;
    cached = { stamp, rules: parsed?.success === true ? (parsed.data.rules as AllowRule[]) : [] };
    return cached.rules;
  }
  function change(next: (rules: AllowRule[]) => AllowRule[] | null): Promise<boolean> {
    return withFileLock(file, async () => {
      const rules = next(current());
      if (rules === null) return false;
      await writeFileAtomic(file, `${JSON.stringify({ v: 1, rules }, null, 2)}\n`);
      return true;
    });
  }

  return {
    propose(call) {
      const executor = registry.get(call.executor);
      if (call.sender === undefined || executor === undefined) return null;
      const found = scopeFor(executor, call, env);
      if (found === null) return null;
      return {
        v: 1,
        sender: call.sender,
        executor: call.executor,
        scope: found.scope,
        description: visibleLine(`Always allow ${found.wording}`),
        createdAt: new Date().toISOString(),
      };
    },

    async add(rule) {
      const checked = ruleSchema.parse(rule) as AllowRule;
      await change((rules) =>
        rules.some((existing) => sameScope(existing, checked)) ? null : [...rules, checked],
      );
    },

    list(sender) {
      return Promise.resolve(current().filter((rule) => rule.sender === sender));
    },

    remove(sender, n) {
      return change((rules) => {
        const own = rules.filter((rule) => rule.sender === sender);
        const target = Number.isInteger(n) && n >= 1 ? own[n - 1] : undefined;
        return target === undefined ? null : rules.filter((rule) => rule !== target);
      });
    },

    match(call) {
      const executor = registry.get(call.executor);
      if (call.sender === undefined || executor === undefined) return null;
      return (
        current().find(
          (rule) =>
            rule.sender === call.sender &&
            rule.executor === call.executor &&
            covers(rule, executor, call, env),
        ) ?? null
      );
    },
  };
}
