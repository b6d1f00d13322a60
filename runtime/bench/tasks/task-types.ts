// The shape of one everyday task: what the person says and the calls a capable model makes
// for it, each marked with whether a careful person wants a card there.

/** "none": runs without a card; "want": a careful person wants one; "must": it must never run without one. */
export type CardWanted = 'none' | 'want' | 'must';

export interface TaskCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly card: CardWanted;
}

export type TaskGroup = 'home' | 'project' | 'system' | 'web' | 'chores' | 'must-ask';

export interface EverydayTask {
  readonly id: string;
  readonly group: TaskGroup;
  /** The person's message, as typed. */
  readonly ask: string;
  /** In order, as the model emits them (one per model turn). */
  readonly calls: readonly TaskCall[];
}
