// Stage 5: a call that passed the vaglio becomes allow or ask. The guard is never bypassed
// here: this stage only runs after it passed.
import type { FetchAnswer } from './tiers/index.ts';
import type { AnyExecutor } from '../../executors/define.ts';
import type { RuleStore } from '../approvals/types.ts';
import type { Config } from '../config.ts';
import { MENTION_SIGNAL, SECRET_TOKEN_SIGNAL, STORED_CREDENTIAL_SIGNAL } from '../vaglio/guard.ts';
import type { Verdict } from '../vaglio/verdict.ts';
import type { Grant } from './grant.ts';
import type { ProposedCall } from './types.ts';
import type { WorkspaceDecision } from './workspace/policy.ts';

export type PolicyResult =
  | { readonly decision: 'allow'; readonly reason: string; readonly grant: Grant }
  | {
      readonly decision: 'ask';
      readonly reason: string;
      /** The card names the unreviewed files the code would run over: approving reviews them. */
      readonly reviews?: true;
    };

export interface PolicyInput {
  readonly call: ProposedCall;
  readonly executor: AnyExecutor;
  readonly config: Config;
  readonly verdict: Verdict;
  readonly threshold: number;
  readonly rules: RuleStore | undefined;
  /** What an always-allow rule's call writes, for the record (a file tool's paths, or anything). */
  readonly ruleRecords: readonly string[] | 'anything';
  /** The command needs the network (its card says so): a person's or a rule's allow gives it. */
  readonly needsNetwork: boolean;
  /** The line lists or signals processes (needed), or does nothing but list them (listsOnly). */
  readonly hostProcesses: { readonly needed: boolean; readonly listsOnly: boolean };
  /** The read-only catalogue rule that matched this shell call, if any. */
  readonly readOnlyRule: string | null;
  /** A plain GET (or download to a new file) the fetch tier lets run through the checking proxy. */
  readonly fetch: FetchAnswer | null;
  /** The workspace rules that matched this shell call and the paths it may write, if any. */
  readonly workspace: WorkspaceDecision | null;
  /** What the guard passed with: a mention or a secret-shaped token never runs without a card. */
  readonly guardSignals: readonly string[];
  /**
   * The call with its paths resolved (links followed): a rule covers a file call only where the
   * file really is, not only where its name says.
   */
  readonly resolvedCall: ProposedCall;
  /**
   * Why code this call runs must be looked at first (it would run, able to write, next to
   * unreviewed files), or null; asked only when a rule covers the call or a card is shown.
   */
  readonly codeReview: () => string | null;
  /** Why a tier that matched the call asks: its card says so instead of the general reason. */
  readonly askReason?: string | null;
}

/** The card a guard signal calls for: what the guard let through but no call does unseen. */
function guardCard(signals: readonly string[]): string | null {
  if (signals.includes(SECRET_TOKEN_SIGNAL))
    return 'policy: data leaves the machine: what this call sends holds a secret-shaped token (a key, token or private key)';
  if (signals.includes(STORED_CREDENTIAL_SIGNAL))
    return 'policy: the file holds a credential (a key, a token, a login or a store of them) that its place does not protect; a person decides';
  if (signals.includes(MENTION_SIGNAL))
    return 'policy: a protected path is mentioned but not opened (as text, for its names or mode, or as a key ssh signs with); a person decides';
  return null;
}

/**
 * Decide allow or ask. A person's approval answers the card the call showed: when that card
 * named the unreviewed files its code runs over, they are now reviewed.
 */
export function decidePolicy(input: PolicyInput): PolicyResult {
  const { call } = input;
  if (call.approvedBy !== undefined) {
    const shown = decideUnapproved(input);
    const reviews = shown.decision === 'ask' && shown.reviews === true;
    return {
      decision: 'allow',
      reason: `approved by ${call.approvedBy}`,
      grant: {
        by: 'person',
        who: call.approvedBy,
        reviews,
        network: input.needsNetwork,
        hostProcesses: input.hostProcesses.needed,
      },
    };
  }
  return decideUnapproved(input);
}

/** Allow or ask for a call no person has approved; the first rule that applies wins, in order. */
function decideUnapproved(input: PolicyInput): PolicyResult {
  const { call, executor, config, verdict } = input;
  const name = executor.name;
  const card = guardCard(input.guardSignals);
  if (card !== null) return { decision: 'ask', reason: card };
  if (config.approvals.always_ask.includes(name)) {
    return { decision: 'ask', reason: `policy: approvals.always_ask lists ${name}` };
  }
  if (config.approvals.never_ask.includes(name) && !executor.critical) {
    const reason = `policy: approvals.never_ask lists ${name}`;
    return { decision: 'allow', reason, grant: { by: 'policy', rule: reason } };
  }
  if (verdict.score < input.threshold + config.approvals.grey_band) {
    return {
      decision: 'ask',
      reason: `policy: judge score ${verdict.score.toFixed(2)} is within the grey band above the threshold`,
    };
  }
  // The uncarded tiers come before the always-allow rules: their sandbox is narrower than a
  // rule's, and project code over unreviewed writes asks even where a rule would allow it.
  const sandboxed = config.sandbox.mode !== 'off';
  if (input.readOnlyRule !== null && sandboxed)
    return {
      decision: 'allow',
      reason: `read-only: ${input.readOnlyRule}`,
      grant: {
        by: 'tier',
        tier: 'read-only',
        rule: input.readOnlyRule,
        writable: [],
        readOnlyWithin: [],
        records: [],
        replaces: false,
        hostProcesses: input.hostProcesses.listsOnly,
        viaProxy: false,
        pinned: [],
      },
    };
  if (input.fetch !== null && config.sandbox.mode === 'bwrap')
    return {
      decision: 'allow',
      reason: `fetch: ${input.fetch.rule}`,
      grant: {
        by: 'tier',
        tier: 'fetch',
        rule: input.fetch.rule,
        writable: input.fetch.writable,
        readOnlyWithin: [],
        records: input.fetch.records,
        replaces: false,
        hostProcesses: false,
        viaProxy: true,
        pinned: [],
      },
    };
  const { workspace } = input;
  if (workspace !== null)
    return {
      decision: 'allow',
      reason: `${workspace.tier === 'read-only-code' ? 'read-only code' : 'workspace'}: ${workspace.rule}`,
      grant: {
        by: 'tier',
        tier: workspace.tier,
        rule: workspace.rule,
        writable: workspace.writable,
        readOnlyWithin: workspace.readOnlyWithin,
        records: workspace.written,
        replaces: workspace.replaces,
        hostProcesses: false,
        viaProxy: false,
        pinned: workspace.pinned,
        ...(workspace.codeView === undefined ? {} : { codeView: workspace.codeView }),
        ...(workspace.newFile === undefined ? {} : { newFile: workspace.newFile }),
      },
    };
  const matched = input.rules?.match(call) ?? null;
  const rule = matched !== null && input.rules?.match(input.resolvedCall) != null ? matched : null;
  // Code that runs able to write next to unreviewed files asks with them named, rule or not.
  const review = rule !== null || executor.critical ? input.codeReview() : null;
  if (review !== null) return { decision: 'ask', reason: review, reviews: true };
  if (rule !== null) {
    const reason = `rule: ${rule.description}`;
    return {
      decision: 'allow',
      reason,
      grant: {
        by: 'rule',
        rule: rule.description,
        records: input.ruleRecords,
        network: input.needsNetwork,
        hostProcesses: input.hostProcesses.needed,
      },
    };
  }
  // Read-only is only a promise the sandbox keeps; without one, fail closed to a card.
  if (input.readOnlyRule !== null) {
    return {
      decision: 'ask',
      reason: `policy: read-only: ${input.readOnlyRule} matched, but sandbox.mode is off and nothing would stop it writing`,
    };
  }
  if (executor.critical) {
    const reason = input.askReason ?? `policy: ${name} changes state and needs approval`;
    return { decision: 'ask', reason };
  }
  const reason = `policy: ${name} does not change state`;
  return { decision: 'allow', reason, grant: { by: 'policy', rule: reason } };
}
