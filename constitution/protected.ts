// The one list of protected places, asked by every part that touches a path: the guard
// (words and file-tool paths), the path oracle (tiers, scope), the walks of fs_grep, fs_glob
// and fs_list, the executors' run-time re-check, and the sandbox's masks. The families are
// FORBIDDEN_PATHS (forbidden-paths.ts); Custode's own dirs join them wherever XDG_* puts them.
import { FORBIDDEN_PATHS, forbiddenPathRule, type ForbiddenPath } from './forbidden-paths.ts';

/** Why a place is protected: the family's name (what a denial says) and its reason. */
export interface Protection {
  readonly name: string;
  readonly why: string;
}

/** Custode's own dirs as a family: the assistant must not read or rewrite its own record. */
const OWN_DIRS: Protection = {
  name: "Custode's own config, state and audit log, or where a protected store links to",
  why: "keys, chat histories, approvals, always-allow rules and the audit log are not the model's to read or change",
};

function isUnder(path: string, root: string): boolean {
  return root === '/' || path === root || path.startsWith(`${root}/`);
}

/**
 * The protection over a normalised absolute path, or null. `ownDirs` are Custode's config, data
 * and state dirs as this process resolves them (runtime/paths.ts). Raw devices count only as
 * content: `kinds` narrows to secrets where a caller reads metadata alone.
 */
export function protectionOf(
  path: string,
  ownDirs: readonly string[],
  kinds?: ReadonlySet<ForbiddenPath['kind']>,
): Protection | null {
  const rule = forbiddenPathRule(path, kinds);
  if (rule !== null) return rule;
  return ownDirs.some((dir) => isUnder(path, dir)) ? OWN_DIRS : null;
}

/**
 * Where the host's unix sockets are: the runtime dirs (/run, /var/run; the executor adds
 * $XDG_RUNTIME_DIR) and the places container engines keep theirs in a home (Docker Desktop,
 * colima, lima, Rancher Desktop, OrbStack, podman machine). A socket on a read-only bind still
 * connects, and the Docker socket or the user's D-Bus runs anything outside the sandbox: a call
 * no person approved (code above all, which can connect where `cat` cannot) sees them hidden.
 * A socket elsewhere in a home, one no engine is known to use, is not found here.
 */
export const HOST_SOCKET_PLACES: {
  readonly system: readonly string[];
  readonly home: readonly string[];
} = {
  system: ['/run', '/var/run'],
  home: [
    '.docker/run',
    '.docker/desktop',
    '.colima',
    '.lima',
    '.rd',
    '.orbstack',
    '.local/share/containers',
  ],
};

let masked: { readonly home: readonly string[]; readonly system: readonly string[] } | undefined;

/**
 * The sandbox's masks of every family: home-relative and system paths (`*` = any one name).
 * Built once: the families are constants, and every decision asks several times.
 */
export function maskedStores(): {
  readonly home: readonly string[];
  readonly system: readonly string[];
} {
  masked ??= {
    home: FORBIDDEN_PATHS.flatMap((rule) => rule.masks?.home ?? []),
    system: FORBIDDEN_PATHS.flatMap((rule) => rule.masks?.system ?? []),
  };
  return masked;
}
