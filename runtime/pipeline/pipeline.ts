// The pre-execution pipeline: validate_args, check_hints, guard, judge, policy, in that
// order, first failure wins. Every decision writes one audit line before anything runs, and
// a call whose line could not be written does not run (unless audit.on_failure: continue).
// evaluate() never throws: a stage that throws denies (fail closed).
import { dirname, resolve } from 'node:path';
import type { AnyExecutor, ExecutorContext } from '../../executors/define.ts';
import { executorRegistry } from '../../executors/index.ts';
import { createDefaultOps } from '../../executors/ops/default-ops.ts';
import { hasStagedOnlyVersion, isTrackedClean } from '../../executors/ops/git-clean.ts';
import { readArchiveMembers } from '../../executors/ops/archive-members.ts';
import { createRepositoryReader } from '../../executors/ops/repository-reader.ts';
import {
  runsLaterTargetsOf,
  storeAliasesOf,
  type StoreAliases,
} from '../../executors/protected-places.ts';
import {
  createRealPath,
  entryExists,
  isAppendableData,
  isPlainFile,
  isDirectory,
  namesIn,
} from '../../executors/ops/real-path.ts';
import { readSmallText } from '../../executors/ops/small-text.ts';
import { isPublicKeyFile } from '../../executors/ops/public-key-file.ts';
import type { RuleStore } from '../approvals/types.ts';
import type { Config, LlmJudgeConfig } from '../config.ts';
import { ConfigError } from '../errors.ts';
import type { LlmClient } from '../llm/client.ts';
import { createAuditLog, keysOf, type AuditLog, type AuditOrigin } from '../log/audit-log.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { configDir, dataDir, homeDir, stateDir } from '../paths.ts';
import { initShellParser } from '../shell/parse.ts';
import { judgeClientFor } from '../vaglio/judge-clients.ts';
import { createLlmPanel, type LlmPanel } from '../vaglio/panel.ts';
import { readOnlyMatcherFor } from './read-only-policy.ts';
import { workspaceCatalogueFor } from './workspace/policy.ts';
import { openUnreviewedWrites, unreviewedWritesFile } from './workspace/unreviewed.ts';
import { createPathOracle, type PathOracle } from './paths.ts';
import { aliasesOnce, resolvingOnce } from './one-decision.ts';
import { resolveConfiguredRoots, type RealPath } from './scope-paths.ts';
import { evaluateStages, type StageDeps } from './run-stages.ts';
import { afterAuditWrite } from './unaudited.ts';
import { auditedCall } from './validate-args.ts';
import type { PipelineOutcome, ProposedCall } from './types.ts';

export type InvokeResult =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: { readonly name: string; readonly message: string } };

export interface Pipeline {
  /** Decide a proposed call; writes the audit line; never throws. */
  evaluate(call: ProposedCall, signal?: AbortSignal): Promise<PipelineOutcome>;
  /** Run an allowed outcome's executor; executor errors come back as data. */
  invoke(outcome: PipelineOutcome, signal: AbortSignal): Promise<InvokeResult>;
  readonly executors: ReadonlyMap<string, AnyExecutor>;
  readonly tools: readonly { name: string; description: string }[];
  /** The path oracle the decisions ask (for a gate whose agent runs the call itself). */
  readonly paths: PathOracle;
  close(): void;
}

/** What `createPipeline` makes: a Pipeline, and its decisions that answer one question together. */
export interface GatePipeline extends Pipeline {
  /**
   * Decisions that answer one question together (another agent's tool call, judged as one call
   * or several), sharing one decision's view of the disk: each path resolved once, each git
   * config read once. `paths` is that view, for the gate's own checks of the same question.
   */
  together(): {
    readonly paths: PathOracle;
    evaluate(call: ProposedCall): Promise<PipelineOutcome>;
  };
}

export interface PipelineOptions {
  readonly config: Config;
  readonly env?: NodeJS.ProcessEnv;
  readonly rules?: RuleStore;
  /** The LLM judges' clients (default: each judge's configured provider). */
  readonly llmClientFor?: (judge: LlmJudgeConfig) => LlmClient;
  readonly ops?: ExecutorContext['ops'];
  readonly logger?: Logger;
  /** "off" writes no audit line (benchmarks of the stages alone, corpus runs). */
  readonly audit?: AuditLog | 'off';
  /** Who asks for the decisions, for the audit line (default: the assistant's own planner). */
  readonly origin?: AuditOrigin;
}

function checkPolicyConfig(config: Config, registry: ReadonlyMap<string, AnyExecutor>): void {
  for (const name of [...config.approvals.always_ask, ...config.approvals.never_ask]) {
    if (!registry.has(name)) {
      throw new ConfigError(
        `approvals: unknown executor "${name}". Fix: use one of ${[...registry.keys()].join(', ')}.`,
      );
    }
  }
  for (const name of config.approvals.never_ask) {
    if (registry.get(name)?.critical === true) {
      throw new ConfigError(
        `approvals.never_ask: ${name} changes state and must always ask. Fix: remove it from never_ask.`,
      );
    }
  }
}

function buildPanel(
  options: PipelineOptions,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): LlmPanel | null {
  const clientFor = options.llmClientFor ?? judgeClientFor(options.config, env);
  return createLlmPanel(options.config, env, clientFor, { logger });
}

/**
 * Where commands are looked up, and the install prefix around each `bin` (its etc/ holds what
 * shells source): a new file there shadows a real command (~/miniconda3/bin/git).
 */
function commandDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const dirs = (env.PATH ?? '').split(':').filter((dir) => dir.startsWith('/'));
  const prefixes = dirs
    .filter((dir) => /\/s?bin$/.test(dir))
    .map((dir) => dirname(dir))
    .filter((prefix) => prefix !== home && prefix !== '/');
  return [...new Set([...dirs, ...prefixes])];
}

/**
 * Custode's own code (this file is two levels down, in the sources and in the build alike): what
 * is written there runs at the next start of the daemon or of an agent's `custode hook`.
 */
const CUSTODE_CODE = resolve(import.meta.dirname, '../..');

/**
 * Build the pipeline: the config is checked before the first call. The bash grammar is loaded
 * by the first shell call (a hook's file read starts without it), or here when the operator's
 * read-only rules have examples to check.
 */
export async function createPipeline(options: PipelineOptions): Promise<GatePipeline> {
  const env = options.env ?? process.env;
  const config = options.config;
  const logger = options.logger ?? createLogger(env);
  checkPolicyConfig(config, executorRegistry);
  if (config.approvals.read_only_catalogue.extra.length > 0) await initShellParser();
  const ops = options.ops ?? (await createDefaultOps(config));
  const audit = options.audit === 'off' ? null : (options.audit ?? createAuditLog({ env, logger }));
  const tools = [...executorRegistry.values()].map(({ name, description }) => ({
    name,
    description,
  }));
  const realPath = createRealPath();
  const home = homeDir(env);
  const unreviewed = openUnreviewedWrites(unreviewedWritesFile(env), logger);
  const ownDirs = [configDir(env), dataDir(env), stateDir(env)];
  const roots = resolveConfiguredRoots(config.roots, home, realPath);
  const repositories = createRepositoryReader(env);
  // A store's other names (~/.npmrc -> ~/dotfiles/npmrc, a hard link to a key), looked up as
  // they are at each call.
  const storeAliases = () => storeAliasesOf(env);
  const oracle = (
    resolve: RealPath,
    aliases: () => StoreAliases,
    repositoriesOnce: boolean,
  ): PathOracle =>
    createPathOracle({
      home,
      realPath: resolve,
      roots,
      ownDirs,
      aliases,
      repositories,
      isPublicKeyFile,
      repositoriesOnce,
    });
  // What every decision shares; each gets its own realPath and oracle over it (decisionDeps).
  const shared: StageDeps = {
    config,
    env,
    registry: executorRegistry,
    realPath,
    paths: oracle(realPath, storeAliases, false),
    panel: buildPanel(options, env, logger),
    rules: options.rules,
    readOnly: readOnlyMatcherFor(config),
    workspace: workspaceCatalogueFor(config),
    isDirectory,
    entryExists,
    namesIn,
    readSmallText,
    isAppendableData,
    isPlainFile,
    // Looked up at each call: a dotfile or ~/bin linked since is protected where it leads.
    protectedDirs() {
      const commands = commandDirs(env, home);
      return [...ownDirs, CUSTODE_CODE, ...commands, ...runsLaterTargetsOf(home, commands)];
    },
    unreviewed,
    trackedClean: isTrackedClean,
    stagedOnly: hasStagedOnlyVersion,
    readArchive: readArchiveMembers,
    tools,
    logger,
  };
  /**
   * One decision's view of the disk: every path it names resolved once (one-decision.ts). Only
   * fields `shared` has are replaced: in Node 20 a spread that adds a field costs ~10 µs.
   */
  const decisionDeps = (): StageDeps => {
    const resolve = resolvingOnce(realPath);
    return {
      ...shared,
      realPath: resolve,
      paths: oracle(resolve, aliasesOnce(storeAliases), true),
    };
  };

  /** Decide `call` with `deps` and write its audit line. */
  const evaluateWith = async (
    deps: StageDeps,
    call: ProposedCall,
    signal?: AbortSignal,
  ): Promise<PipelineOutcome> => {
    const outcome = await evaluateStages(call, deps, signal);
    const written = audit?.append({
      v: 1,
      event: 'decision',
      ts: outcome.verdict.ts,
      intent: typeof call.intent === 'string' ? call.intent : '',
      ...auditedCall(executorRegistry, call, outcome.stage !== 'validation'),
      context_keys: keysOf(call.context),
      stage: outcome.stage,
      decision: outcome.decision,
      verdict: outcome.verdict,
      origin: options.origin ?? 'assistant',
      // Only an uncarded tier sets what the sandbox may write, and its reason names the rule.
      ...(outcome.decision === 'allow' && outcome.grant.by === 'tier'
        ? { tier: outcome.reason }
        : {}),
    });
    return written === undefined ? outcome : afterAuditWrite(outcome, written, config, logger);
  };

  return {
    executors: executorRegistry,
    tools,
    paths: shared.paths,
    evaluate: (call, signal) => evaluateWith(decisionDeps(), call, signal),
    together() {
      const deps = decisionDeps();
      return { paths: deps.paths, evaluate: (call) => evaluateWith(deps, call) };
    },
    async invoke(outcome, signal) {
      if (outcome.decision !== 'allow') {
        return {
          ok: false,
          error: { name: 'PermissionDenied', message: 'only an allowed call can run' },
        };
      }
      try {
        // Recorded before the effect, and no effect without the record: a write no person saw
        // must stay unreviewed even if the call dies, and must not happen unrecorded.
        const { grant } = outcome;
        if (grant.by === 'tier' && grant.records.length > 0) await unreviewed.record(grant.records);
        if (grant.by === 'rule') {
          if (grant.records === 'anything') await unreviewed.recordUnseen();
          else if (grant.records.length > 0) await unreviewed.record(grant.records);
        }
        if (grant.by === 'person' && grant.reviews) await unreviewed.clear();
        const result: unknown = await outcome.executor.run(outcome.args, {
          config,
          env,
          signal,
          ops,
          grant,
        });
        return { ok: true, result };
      } catch (error) {
        const err = error instanceof Error ? error : new Error(String(error));
        return { ok: false, error: { name: err.name, message: err.message } };
      }
    },
    close: () => audit?.close(),
  };
}
