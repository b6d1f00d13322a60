// A channel-neutral card: the effect of this call on its full target first (a phone's
// notification shows only that line), then whether it can be undone, what it changes, what
// "Always allow" would save, and last the vaglio's details. Telegram, Slack and the terminal
// each render this model; none builds its own wording. Every text in it has passed
// visibleText(): no control or bidi character reaches a channel raw.

export interface ApprovalCard {
  readonly kind: 'approval' | 'refusal';
  /**
   * The effect on the full target: "Overwrite ~/Documents/budget.csv (2.1 kB → 1.4 kB)",
   * "Create ~/notes/groceries.md", "Run rm -rf ~/projects/app/build", "Send ?token=… to example.com".
   */
  readonly headline: string;
  readonly verb: string;
  readonly target: string;
  /** Whether this call (not its tool) can be undone. */
  readonly reversible: boolean;
  /** The reversibility line, with its reason: "Can be undone: a new file (delete it to undo)". */
  readonly undo?: string;
  /** "Needs the network: github.com", or "Needs the network (hosts unknown)"; absent when not. */
  readonly network?: string;
  /** "Will fail in the sandbox: crontab is set-group-ID …"; absent when nothing dooms the run. */
  readonly limits?: string;
  /** "files", "shell" or "web". */
  readonly executorClass: string;
  readonly executor: string;
  /** What changes: a diff, the content's head and tail, the command whole (or head and tail). */
  readonly detail: string;
  /** Approvals: what "Always allow" would save, said before it is pressed. */
  readonly always?: string;
  readonly score: number;
  readonly reason: string;
  /** For refusals: what the person can do instead, naming the setting that would help. */
  readonly advice?: string;
}
