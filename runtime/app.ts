// The composition root: config in, a running chat service out. Everything with side effects
// is created here (and only here), so the planner and channels receive their parts.
import { join } from 'node:path';
import { createRemoteReader } from '../executors/ops/git-remotes.ts';
import { createTargetInspector } from '../executors/ops/inspect-target.ts';
import { createDefaultOps } from '../executors/ops/default-ops.ts';
import { createProgramLookup } from '../executors/ops/program-lookup.ts';
import { resolvePath } from '../executors/resolve-path.ts';
import { commandEnv } from '../executors/shell-exec.ts';
import { createCardBuilder } from './approvals/build-card.ts';
import { createRuleStore } from './approvals/rule-store.ts';
import { createApprovalStore } from './approvals/store.ts';
import type { ApprovalStore } from './approvals/types.ts';
import type { Config } from './config.ts';
import type { LlmClient } from './llm/client.ts';
import { createOfflineClient } from './llm/offline.ts';
import { selectProvider } from './llm/select.ts';
import { createAuditLog, type AuditLog } from './log/audit-log.ts';
import { createLogger, type Logger } from './log/logger.ts';
import { createTurnLog, type TurnLog } from './log/turn-log.ts';
import { stateDir } from './paths.ts';
import { createChannelHealth, type ChannelHealth } from './health/channel-health.ts';
import { createPipeline, type Pipeline } from './pipeline/pipeline.ts';
import { ChatService } from './planner/chat-service.ts';
import { fanOut } from './planner/events.ts';
import { createHistoryStore } from './planner/history.ts';

/** How often parked approvals are checked for expiry. */
const expirySweepMs = 30_000;

export interface App {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly client: LlmClient;
  /** Why this model provider was chosen (doctor, chat banner). */
  readonly providerReason: string;
  readonly pipeline: Pipeline;
  readonly service: ChatService;
  /** The pending cards. */
  readonly approvals: ApprovalStore;
  readonly audit: AuditLog;
  readonly turnLog: TurnLog;
  /** How the remote channels are doing (the daemon's doctor and /healthz read it). */
  readonly health: ChannelHealth;
  /** Finishes or cancels running turns, flushes the logs. */
  close(): Promise<void>;
}

export interface AppOptions {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly logger?: Logger;
  /** A model client to use instead of the selected provider (benchmarks, tests). */
  readonly client?: LlmClient;
  /** Where the person works: the terminal chat's start dir (absent: the home, as for the daemon). */
  readonly workdir?: string;
  /** Wraps the pipeline the chat service sees (the planner benchmark times it). */
  readonly instrumentPipeline?: (pipeline: Pipeline) => Pipeline;
}

/** Builds the app: provider, rules, pipeline, stores, turn log and the chat service. */
export async function createApp(options: AppOptions): Promise<App> {
  const { config, env } = options;
  const logger = options.logger ?? createLogger(env);
  const state = stateDir(env);
  const { workdir } = options;
  const selected = options.client
    ? { client: options.client, reason: 'given by the caller' }
    : await selectProvider(config, env);
  // The offline provider turns /read path and /run into calls itself: it needs the workdir.
  const client =
    workdir !== undefined && selected.client.provider === 'offline'
      ? createOfflineClient(workdir)
      : selected.client;
  const rules = await createRuleStore(join(state, 'rules'), { logger, env });
  const audit = createAuditLog({ env, logger });
  // The daemon lives on between calls: each next sandbox is started before its call comes.
  const ops = await createDefaultOps(config, { prestart: true });
  const pipeline = await createPipeline({ config, env, rules, logger, audit, ops });
  const approvals = createApprovalStore(join(state, 'approvals'), { logger });
  const turnLog = createTurnLog({ config, env, logger });
  const health = createChannelHealth(state, logger);
  const service = new ChatService({
    config,
    client,
    pipeline: options.instrumentPipeline ? options.instrumentPipeline(pipeline) : pipeline,
    approvals,
    rules,
    audit,
    history: createHistoryStore(
      join(state, 'history'),
      {
        maxMessages: config.planner.history_max_messages,
        maxChars: config.planner.history_max_chars,
      },
      logger,
    ),
    buildCard: createCardBuilder({
      inspect: createTargetInspector(),
      readRemotes: createRemoteReader(),
      proposeRule: (call) => rules.propose(call),
      env,
      lookUpProgram: createProgramLookup(commandEnv(env).PATH ?? ''),
      writeRoots: config.roots.write.map((root) => resolvePath(root, env)),
    }),
    events: fanOut([turnLog.sink], logger),
    logger,
    ...(workdir === undefined ? {} : { workdir }),
  });
  const sweep = setInterval(() => {
    service
      .expireDue()
      .catch((error: unknown) => logger.warn({ err: error }, 'approval expiry sweep failed'));
  }, expirySweepMs);
  sweep.unref();
  return {
    config,
    env,
    logger,
    client,
    providerReason: selected.reason,
    pipeline,
    service,
    approvals,
    audit,
    turnLog,
    health,
    async close() {
      clearInterval(sweep);
      try {
        await service.stop();
        await turnLog.flush();
        await health.flush();
      } finally {
        // Whatever failed above, no sandbox outlives the app (nor holds the process open).
        ops.shell.close?.();
        pipeline.close();
      }
    },
  };
}
