// The gate's answer in each agent's documented hook format.
//
// Claude Code (PreToolUse): JSON on stdout with exit 0, `hookSpecificOutput.permissionDecision`
// "deny" (the reason is shown to the model) or "ask" (the reason is shown to the person); no
// decision is an empty object. A payload it cannot read blocks with exit 2 and the reason on
// stderr, which Claude Code documents as blocking (any other non-zero exit would let the call
// run). Over HTTP a non-2xx answer does not block either, so there a failure is a 200 deny.
//
// Codex (PreToolUse, Bash only): exit 2 with the reason on stderr blocks. Codex's hook cannot
// ask a person, so Custode's ask blocks too, saying why.
import type { HookAnswer } from './gate.ts';

/** What a command hook prints and how it exits. */
export interface CommandReply {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 2;
}

function claudeDecision(decision: 'deny' | 'ask', reason: string): object {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  };
}

/** Claude Code's JSON answer (the body of an http hook's 200 response). */
export function claudeCodeBody(answer: HookAnswer): object {
  switch (answer.kind) {
    case 'deny':
    case 'ask':
      return claudeDecision(answer.kind, `Custode: ${answer.reason}`);
    case 'fail':
      return claudeDecision('deny', answer.reason);
    case 'no-decision':
      return {};
  }
}

export function claudeCodeCommandReply(answer: HookAnswer): CommandReply {
  if (answer.kind === 'fail') return { stdout: '', stderr: `${answer.reason}\n`, exitCode: 2 };
  return { stdout: `${JSON.stringify(claudeCodeBody(answer))}\n`, stderr: '', exitCode: 0 };
}

export function codexCommandReply(answer: HookAnswer): CommandReply {
  switch (answer.kind) {
    case 'no-decision':
      return { stdout: '', stderr: '', exitCode: 0 };
    case 'fail':
      return { stdout: '', stderr: `${answer.reason}\n`, exitCode: 2 };
    case 'deny':
      return { stdout: '', stderr: `Custode: ${answer.reason}\n`, exitCode: 2 };
    case 'ask':
      return {
        stdout: '',
        stderr: `Custode wants a person to approve this (${answer.reason}), and a Codex hook cannot ask: blocked. Run it yourself if you meant it.\n`,
        exitCode: 2,
      };
  }
}
