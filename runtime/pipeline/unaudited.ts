// Nothing runs without its audit line: a decision that would let a call run (now or after a
// card) but could not be written becomes a refusal that says why, unless the operator chose
// `audit.on_failure: continue`.
import type { Config } from '../config.ts';
import type { AuditWrite } from '../log/audit-log.ts';
import type { Logger } from '../log/logger.ts';
import { stageDenialVerdict } from './run-stages.ts';
import type { PipelineOutcome } from './types.ts';

/** The outcome to act on once its audit line was (or was not) written. */
export function afterAuditWrite(
  outcome: PipelineOutcome,
  written: AuditWrite,
  config: Config,
  logger: Logger,
): PipelineOutcome {
  if (written.ok || outcome.decision === 'deny') return outcome;
  if (config.audit.on_failure === 'continue') {
    logger.warn(
      { executor: outcome.executor?.name, problem: written.problem },
      'running a call without its audit line (audit.on_failure: continue)',
    );
    return outcome;
  }
  const reason = `not run: its audit line could not be written (${written.problem}), and nothing runs without one`;
  const signals = ['audit log unwritable'];
  return {
    decision: 'deny',
    stage: 'audit',
    reason,
    signals,
    verdict: stageDenialVerdict('audit', reason, signals),
    ...(outcome.executor === undefined ? {} : { executor: outcome.executor }),
    ...(outcome.args === undefined ? {} : { args: outcome.args }),
  };
}
