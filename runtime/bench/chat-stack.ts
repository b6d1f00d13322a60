// The daemon's chat core assembled from the real parts over one state dir: pipeline,
// approval and rule stores, history, chat service. The Telegram benchmark and the channel
// tests drive it; a "restart" is a second stack over the same dir.
import { join } from 'node:path';
import { buildCard } from '../approvals/build-card.ts';
import { createRuleStore } from '../approvals/rule-store.ts';
import { createApprovalStore, type ApprovalStoreWithPeek } from '../approvals/store.ts';
import type { RuleStore } from '../approvals/types.ts';
import type { Config } from '../config.ts';
import type { LlmClient } from '../llm/client.ts';
import { createAuditLog, type AuditLog } from '../log/audit-log.ts';
import type { Logger } from '../log/logger.ts';
import { createPipeline } from '../pipeline/pipeline.ts';
import { ChatService } from '../planner/chat-service.ts';
import { createHistoryStore } from '../planner/history.ts';

export interface ChatStack {
  readonly service: ChatService;
  readonly approvals: ApprovalStoreWithPeek;
  readonly rules: RuleStore;
  readonly audit: AuditLog;
  /** Stops the chat service (running turns are cancelled) and closes the audit log. */
  stop(): Promise<void>;
}

/** A chat service wired like the daemon's, with its state under `stateDir`. */
export async function createChatStack(options: {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly stateDir: string;
  readonly client: LlmClient;
  readonly logger: Logger;
  readonly auditDir?: string;
}): Promise<ChatStack> {
  const { config, env, logger, stateDir } = options;
  const audit = createAuditLog({
    env,
    logger,
    ...(options.auditDir === undefined ? {} : { dir: options.auditDir }),
  });
  const rules = await createRuleStore(join(stateDir, 'rules'), { logger, env });
  const approvals = createApprovalStore(join(stateDir, 'approvals'), { logger });
  const pipeline = await createPipeline({ config, env, rules, logger, audit });
  const history = createHistoryStore(
    join(stateDir, 'history'),
    {
      maxMessages: config.planner.history_max_messages,
      maxChars: config.planner.history_max_chars,
    },
    logger,
  );
  const service = new ChatService({
    config,
    client: options.client,
    pipeline,
    approvals,
    rules,
    history,
    buildCard,
    events: () => undefined,
    logger,
  });
  return {
    service,
    approvals,
    rules,
    audit,
    async stop() {
      await service.stop();
      audit.close();
    },
  };
}
