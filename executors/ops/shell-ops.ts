// Process side effects. The bubblewrap sandbox and bare execa are two implementations.

/** What code nobody reviewed sees besides the system's parts (runtime/pipeline/workspace/code-view.ts). */
export interface CodeView {
  /** Its work tree and the paths it names, each by the name the call uses and where it leads. */
  readonly places: readonly string[];
  /** Hidden inside them: credential files (an empty file over each) and histories (an empty dir). */
  readonly masked: readonly { readonly path: string; readonly kind: 'dir' | 'file' }[];
}

export interface ShellRequest {
  /** The whole command line, run by `bash -c` (inside the sandbox when there is one). */
  readonly command: string;
  /** Extra positional args, passed to bash as $1... (never spliced into the text). */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  readonly signal: AbortSignal;
  /** Directories the command may write (workspace roots); everything else is read-only. */
  readonly writableRoots: readonly string[];
  /**
   * The configured workspace roots, shown read-only when this call may not write them (an
   * uncarded call): one under the host /tmp would otherwise vanish behind the private /tmp.
   */
  readonly visibleRoots?: readonly string[];
  /** Hide the host's unix sockets: its runtime dirs and the container engines' (HOST_SOCKET_PLACES). */
  readonly hideHostSockets?: boolean;
  /**
   * Code nobody reviewed: it sees only the system's parts, the tool directories on PATH
   * (sandbox/code-view-places.ts) and these places, read-only, with these files hidden. Unset:
   * the whole host, read-only.
   */
  readonly codeView?: CodeView;
  /** Places inside the writable roots that stay read-only (bound read-only over them). */
  readonly readOnlyWithin?: readonly string[];
  readonly network: boolean;
  /** The host's processes and sockets in view: its pid and network namespaces, its /proc. */
  readonly hostProcesses?: boolean;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Largest file the command may write, in bytes (RLIMIT_FSIZE, soft and hard: a write past it
   * gets SIGXFSZ or EFBIG). Unset: no limit. Kept by the bubblewrap sandbox only, which is the
   * only place the policy lets a call run without a card.
   */
  readonly maxFileBytes?: number;
  /**
   * Most processes and threads the command may run at once (RLIMIT_NPROC, soft and hard, counted
   * in the sandbox's own user namespace): a fork gets EAGAIN past it. Unset: no limit. Kept by
   * the bubblewrap sandbox only, with maxFileBytes (both through prlimit).
   */
  readonly maxProcesses?: number;
  /** Size in bytes of each private tmpfs in the sandbox (/tmp, /dev/shm); unset: the kernel's. */
  readonly tmpSizeBytes?: number;
}

export interface ShellResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exit_code: number | null;
  readonly timed_out: boolean;
  readonly truncated: boolean;
  readonly sandbox: 'bwrap' | 'off';
}

export interface ShellOps {
  readonly kind: 'bwrap' | 'off';
  run(request: ShellRequest): Promise<ShellResult>;
  /**
   * Stop every process the ops started (pre-started sandboxes, calls still running) and start no
   * more; none by default.
   */
  close?(): void;
}
