// Who let a call run, and what it may touch: made once by the decision, carried unchanged to
// invoke() and the executor, which read it and never infer it. A newcomer answers "would this
// run without a card, and with what sandbox?" from this type and the tier list (tiers/index.ts).

import type { CodeView } from '../../executors/ops/shell-ops.ts';

/** The uncarded tiers, in the order the README's "When Custode asks" table lists them. */
export type TierName = 'read-only' | 'fetch' | 'workspace' | 'project-code' | 'read-only-code';

/** A file the decision read the contents of, and its identity then (dev, inode, size, times). */
export interface PinnedFile {
  readonly path: string;
  readonly identity: string;
}

export type Grant =
  /** A person pressed "Allow" on this call's card. */
  | {
      readonly by: 'person';
      readonly who: string;
      /** The card named every unreviewed file (it runs code over them): clear the record. */
      readonly reviews: boolean;
      /** The card said the command needs the network (constitution/network-use.ts): it gets it. */
      readonly network: boolean;
      /** It lists or signals processes (constitution/process-use.ts): it sees the host's. */
      readonly hostProcesses: boolean;
    }
  /** The config lets a tool that changes nothing run unasked (never_ask, or not critical). */
  | { readonly by: 'policy'; readonly rule: string }
  /** An always-allow rule a person saved: no person saw this call, so what it writes is recorded. */
  | {
      readonly by: 'rule';
      readonly rule: string;
      /** The paths a file tool writes; 'anything' for a command (it could write all it reaches). */
      readonly records: readonly string[] | 'anything';
      /** The saved card said the command needs the network: it gets it. */
      readonly network: boolean;
      /** It lists or signals processes: it sees the host's. */
      readonly hostProcesses: boolean;
    }
  /** An uncarded tier: the sandbox holds the call to what the parse promised. */
  | {
      readonly by: 'tier';
      readonly tier: TierName;
      readonly rule: string;
      /** The only paths the sandbox lets it write ([] = only its private /tmp). */
      readonly writable: readonly string[];
      /** Places inside `writable` that stay read-only (a work tree's .git). */
      readonly readOnlyWithin: readonly string[];
      /** What it writes outside scratch: unreviewed once it runs. */
      readonly records: readonly string[];
      /** It may replace an existing file (project code; a file git can give back); else it only creates. */
      readonly replaces: boolean;
      /** It only lists processes and sockets: it sees the host's, network namespace included. */
      readonly hostProcesses: boolean;
      /** A plain GET (the fetch tier): the network only through the checking proxy. */
      readonly viaProxy: boolean;
      /** Files the decision read (an archive's members): the run refuses one that changed. */
      readonly pinned: readonly PinnedFile[];
      /** What code nobody reviewed sees besides the system's parts; unset, all of it. */
      readonly codeView?: CodeView;
      /**
       * Code nobody reviewed saving its output: the one new file it may write, also its only
       * `writable` path. The run makes it, refusing when anything is there by then.
       */
      readonly newFile?: string;
    };

/** True when no person saw this call: the sandbox narrows it and the record watches it. */
export function isUncarded(grant: Grant): grant is Extract<Grant, { by: 'tier' }> {
  return grant.by === 'tier';
}
