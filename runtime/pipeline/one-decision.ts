// What one decision may remember: each path resolved once and the stores' other names looked up
// once, for that evaluation only. A new decision starts with nothing remembered, so a link
// changed between two decisions is seen by the second; evaluations that interleave (an LLM
// judge awaits) never share what they resolved.
import type { StoreAliases } from '../../executors/protected-places.ts';
import type { RealPath } from './scope-paths.ts';

/** `realPath` answering each distinct path from the disk once, then from memory. */
export function resolvingOnce(realPath: RealPath): RealPath {
  const resolved = new Map<string, string | null>();
  return (path) => {
    const known = resolved.get(path);
    if (known !== undefined) return known;
    const real = realPath(path);
    resolved.set(path, real);
    return real;
  };
}

/** `aliases` looked up at the first question, then kept. */
export function aliasesOnce(aliases: () => StoreAliases): () => StoreAliases {
  let found: StoreAliases | undefined;
  return () => (found ??= aliases());
}
