// What a stranger is told in a private chat: the code the owner approves, and where.

/** The reply carrying a stranger's pairing code. */
export function strangerReply(code: string): string {
  return [
    "Sorry, I don't know you yet: this assistant only talks to the people it was set up for.",
    'If it is yours, run this on the machine where it runs, then write to me again:',
    '',
    `custode pair approve ${code}`,
    '',
    '(The code is valid for an hour.)',
  ].join('\n');
}
