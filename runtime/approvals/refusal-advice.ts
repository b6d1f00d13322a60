// What a person can do about a refusal, naming the exact setting that would help (read off the
// scope stage's signals, which say which check failed), or saying that none would.

const BY_STAGE: ReadonlyMap<string, string> = new Map([
  ['validation', 'Fix the arguments: the call did not match what the tool accepts.'],
  [
    'scope',
    'Narrow the path, or widen the configured scope (roots, shell.subcommand_allowlist, web.domain_allowlist, web.private_allowlist) in the config file.',
  ],
  [
    'guard',
    'This is forbidden by the constitution and cannot be approved. Rephrase what you need without touching it.',
  ],
  [
    'judge',
    'The vaglio judged this not to match your request. Rephrase the request so it says exactly what you want.',
  ],
]);

// The scope stage's signals (runtime/pipeline/check-hints.ts), each with the setting that helps.
const BY_SIGNAL: ReadonlyMap<string, string> = new Map([
  [
    'non-public address',
    'Loopback, private and link-local addresses are refused unless listed: add the host or its CIDR to web.private_allowlist in the config file.',
  ],
  ['domain not allowed', 'Add the host to web.domain_allowlist in the config file.'],
  [
    'path outside write roots',
    'Use a path inside the write roots, or add a directory that holds it to roots.write in the config file.',
  ],
  [
    'path outside read roots',
    'Use a path inside the read roots, or add a directory that holds it to roots.read in the config file.',
  ],
  [
    'command not in subcommand_allowlist',
    'Add the command to shell.subcommand_allowlist in the config file ("*" allows all its subcommands).',
  ],
  [
    'subcommand not in subcommand_allowlist',
    "Add the subcommand to the command's list in shell.subcommand_allowlist in the config file.",
  ],
  ['scheme not allowed', 'Only http and https URLs can be fetched; no setting changes this.'],
  ['not a url', 'Fix the arguments: the URL does not parse.'],
  [
    'read-only asked to write',
    'This tool only reads; use a tool that writes (no setting changes this).',
  ],
]);

/** The advice for a refusal at `stage` with these signals: the most specific one known. */
export function refusalAdvice(stage: string | null, signals: readonly string[]): string {
  for (const signal of signals) {
    const advice = BY_SIGNAL.get(signal);
    if (advice !== undefined) return advice;
  }
  return BY_STAGE.get(stage ?? 'judge') ?? (BY_STAGE.get('judge') as string);
}
