// What a card may know about the file a call targets, through injected looks (the file
// system stays in executors/ops): does it exist, how big is it, its text for a diff, whether
// git can give it back; and for a command, the git remotes where it runs.

/** A file or directory as it is now; null from an inspector means "could not tell". */
export type TargetFacts =
  | { readonly exists: false }
  | {
      readonly exists: true;
      readonly kind: 'file' | 'directory' | 'other';
      readonly size: number;
      /** Where it really is, links resolved (a link into a hidden place hides its text too). */
      readonly realPath: string;
      /** UTF-8 text when it was asked for, is small enough and is not binary; else null. */
      readonly text: string | null;
      /** Tracked by git and unmodified in work tree and index: `git restore` gives it back. */
      readonly gitClean: boolean;
    };

/** Looks at one absolute path; `text` asks for the content too. Never throws: null is "unknown". */
export type InspectTarget = (
  path: string,
  options: { readonly text: boolean },
) => Promise<TargetFacts | null>;

/** The remotes of the repository holding a directory: name → URL, and the one `git push` uses. */
export interface GitRemotes {
  readonly urls: ReadonlyMap<string, string>;
  readonly defaultRemote: string | null;
}

/** Reads a directory's git remotes. Never throws: no repository means no remotes. */
export type ReadRemotes = (dir: string) => Promise<GitRemotes>;
