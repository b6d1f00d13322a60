// A channel-neutral card: what will happen before how. Telegram, Slack and the terminal
// each render this model; none builds its own wording.

export interface ApprovalCard {
  readonly kind: 'approval' | 'refusal';
  /** The action verb and target, e.g. "Run git reset --hard" or "Write ~/notes.txt". */
  readonly headline: string;
  readonly verb: string;
  readonly target: string;
  /** Whether the action can be undone (a read can; a delete or an arbitrary command cannot). */
  readonly reversible: boolean;
  /** "files", "shell" or "web". */
  readonly executorClass: string;
  readonly executor: string;
  /** The raw command or arguments, shortened. */
  readonly detail: string;
  readonly score: number;
  readonly reason: string;
  /** For refusals: what the person can do instead. */
  readonly advice?: string;
}
