// The text a file tool returns to the model. A person who approved the call saw on its card what
// the file holds and gets it as it is; otherwise (a tool that changes nothing, an always-allow
// rule, a tier) no person saw it, and the decision's look at the file covered only what it read
// then, so every credential is cut, as from a shell command's output (a token past the part of a
// large log the decision read, a file rewritten between the decision and the run).
import { withoutCredentials } from '../constitution/stored-credentials.ts';
import type { Grant } from '../runtime/pipeline/grant.ts';

/** `text` as the model may see it under `grant`. */
export function shownText(text: string, grant: Grant): string {
  return grant.by === 'person' ? text : withoutCredentials(text);
}

/**
 * File names as the model may see them under `grant`: a name can hold a credential (wget and
 * browsers save `report.pdf?access_token=…` under the URL's last segment). Cut in one pass over
 * the list, as a shell listing is; one name at a time only when a cut spans names.
 */
export function shownNames(names: readonly string[], grant: Grant): string[] {
  if (grant.by === 'person' || names.length === 0) return [...names];
  const lines = withoutCredentials(names.join('\n')).split('\n');
  return lines.length === names.length ? lines : names.map((name) => withoutCredentials(name));
}
