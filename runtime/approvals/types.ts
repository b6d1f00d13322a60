// Contracts between the planner's chat service, the approval store, the rule store and
// the channels. Records on disk carry `v: 1`.
import type { ProposedCall } from '../pipeline/types.ts';
import type { ApprovalCard } from './card.ts';

export type ChannelName = 'local' | 'telegram' | 'slack';

/** What a person answered on a card. */
export type ApprovalAnswer = 'once' | 'always' | 'deny';

/** Where a card was posted, so it can be edited later (channel-specific, JSON-serialisable). */
export type MessageRef = Readonly<Record<string, string | number>>;

/** A persisted pending approval: enough to resume the turn after a restart. */
export interface PendingApproval {
  readonly v: 1;
  /** Unguessable, single-use callback id (>= 128 bits, base64url). */
  readonly id: string;
  readonly channel: ChannelName;
  readonly chatId: string;
  /** Channel-qualified sender id, e.g. "telegram:42". */
  readonly sender: string;
  readonly call: ProposedCall;
  readonly card: ApprovalCard;
  /** The planner's serialisable turn state, resumed when the card is answered. */
  readonly turnState: unknown;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly messageRef?: MessageRef;
}

export type TakeResult =
  | { readonly kind: 'taken'; readonly pending: PendingApproval }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'already_resolved' }
  | { readonly kind: 'expired'; readonly pending: PendingApproval }
  | { readonly kind: 'not_yours' };

/** A pending card whose file no longer reads as one, set aside; its chat when the file still names it. */
export interface DamagedApproval {
  readonly file: string;
  readonly chat: { readonly channel: ChannelName; readonly chatId: string } | null;
}

export interface ApprovalStore {
  put(pending: PendingApproval): Promise<void>;
  setMessageRef(id: string, ref: MessageRef): Promise<void>;
  /** Atomically claims the approval for `presser` (single-use; owner or approvers only). */
  take(id: string, presser: string, approvers: readonly string[], now?: Date): Promise<TakeResult>;
  /** Pending approvals whose expiry has passed (they resolve as deny). */
  expired(now?: Date): Promise<readonly PendingApproval[]>;
  list(): Promise<readonly PendingApproval[]>;
  /** Sets aside (as `.damaged`) every card file that no longer reads as a card, and says whose it was. */
  setAsideDamaged(): Promise<readonly DamagedApproval[]>;
}

/** A narrow always-allow rule owned by one sender. */
export interface AllowRule {
  readonly v: 1;
  readonly sender: string;
  readonly executor: string;
  /** shell: binary + exact args + cwd (older rules: binary + subcommand); files: directory prefix; web: host. */
  readonly scope: {
    readonly binary?: string;
    readonly subcommand?: string;
    readonly args?: readonly string[];
    readonly cwd?: string;
    readonly dirPrefix?: string;
    readonly host?: string;
  };
  /** Human wording shown before it is saved and by /rules. */
  readonly description: string;
  readonly createdAt: string;
}

export interface RuleStore {
  /** The narrowest sensible rule for this call, or null when none is safe (bare interpreters...). */
  propose(call: ProposedCall): AllowRule | null;
  add(rule: AllowRule): Promise<void>;
  list(sender: string): Promise<readonly AllowRule[]>;
  /** Remove the sender's rule number n (1-based, as /rules lists them). */
  remove(sender: string, n: number): Promise<boolean>;
  /** The sender's rule that covers this exact call, if any. */
  match(call: ProposedCall): AllowRule | null;
}
