// What one call does, in the card's words: the headline's verb and target, whether it can be
// undone (and why), the network it needs, and the detail that shows what changes.

export interface Effect {
  readonly verb: string;
  readonly target: string;
  /** The verb on the full target, e.g. "Overwrite ~/a.csv (2.1 kB → 1.4 kB)". */
  readonly headline: string;
  readonly reversible: boolean;
  readonly undo: string;
  readonly detail: string;
  readonly network?: string;
  /** "Will fail in the sandbox: …" when the sandbox dooms the run (sandbox-limits.ts). */
  readonly limits?: string;
}
