// Text renderings of the card model, shared by the terminal and Telegram (plain text, no
// markup, so a path or command with special characters can never break the message),
// and the button payloads every channel uses. Slack's Block Kit lives in channels/slack.
import type { ApprovalCard } from './card.ts';
import type { AllowRule, ApprovalAnswer } from './types.ts';
import { visibleLine } from './visible-text.ts';

/** How a card ended: a person's answer, or its expiry (which resolves as deny). */
export type Resolution = ApprovalAnswer | 'expired';

const ANSWER_CODES: ReadonlyMap<ApprovalAnswer, string> = new Map([
  ['once', 'o'],
  ['always', 'a'],
  ['deny', 'd'],
]);
const CODE_ANSWERS: ReadonlyMap<string, ApprovalAnswer> = new Map(
  [...ANSWER_CODES].map(([a, c]) => [c, a]),
);

/** The three buttons in display order, with their labels. */
export const CARD_BUTTONS: readonly { readonly answer: ApprovalAnswer; readonly label: string }[] =
  [
    { answer: 'once', label: 'Allow once' },
    { answer: 'always', label: 'Always allow' },
    { answer: 'deny', label: 'Deny' },
  ];

/** Button payload `a:<id>:<o|a|d>` (36 bytes with a 22-character id, under Telegram's 64). */
export function encodeButton(approvalId: string, answer: ApprovalAnswer): string {
  return `a:${approvalId}:${ANSWER_CODES.get(answer) ?? 'd'}`;
}

/** The approval id and answer in a button payload, or null for anything else. */
export function decodeButton(data: string): { approvalId: string; answer: ApprovalAnswer } | null {
  const match = /^a:([A-Za-z0-9_-]{1,64}):([oad])$/.exec(data);
  const answer = match?.[2] === undefined ? undefined : CODE_ANSWERS.get(match[2]);
  return match?.[1] === undefined || answer === undefined ? null : { approvalId: match[1], answer };
}

/**
 * The card's facts as plain lines: the effect on its target first (the only line a phone's
 * notification shows), whether it can be undone, the network, what changes, what "Always
 * allow" saves (or why it is refused and what would help), and the vaglio's details last.
 * The reason stays on its own line: it can name what to look at (unreviewed files).
 */
export function cardLines(card: ApprovalCard): string[] {
  const refused = card.kind === 'refusal';
  return [
    refused ? `Refused: ${card.headline}` : `Approval needed: ${card.headline}`,
    // Cards saved before the undo line existed say what the tool's class said.
    card.undo ?? (card.reversible ? 'Can be undone' : 'Cannot be undone'),
    ...(card.network === undefined ? [] : [card.network]),
    ...(card.limits === undefined ? [] : [card.limits]),
    card.detail,
    `Why: ${card.reason}`,
    ...(card.advice === undefined ? [] : [`What you can do: ${card.advice}`]),
    ...(card.always === undefined ? [] : [card.always]),
    `Details: ${card.executorClass} (${card.executor}) · vaglio score ${card.score.toFixed(2)}`,
  ];
}

/** The whole card as plain text. */
export function renderCardText(card: ApprovalCard): string {
  return cardLines(card).join('\n');
}

/** One line saying how the card was resolved and by whom. */
export function resolutionLine(resolution: Resolution, by?: string): string {
  const who = by === undefined ? '' : ` by ${by}`;
  switch (resolution) {
    case 'once':
      return `Allowed once${who}.`;
    case 'always':
      return `Always allowed${who} (a rule was saved).`;
    case 'deny':
      return `Denied${who}.`;
    case 'expired':
      return 'Expired without an answer: treated as denied.';
  }
}

/** The card's text after a decision: the headline, then the outcome (the buttons are gone). */
export function renderResolvedText(
  card: ApprovalCard,
  resolution: Resolution,
  by?: string,
): string {
  return `${card.headline}\n${resolutionLine(resolution, by)}`;
}

/** A saved rule as one line, as /rules lists it (1-based index). */
export function renderRuleLine(rule: AllowRule, index: number): string {
  // A rule saved before descriptions were neutralised may still hold a control character.
  return `${String(index)}. ${visibleLine(rule.description)} (since ${rule.createdAt.slice(0, 10)})`;
}

/** What a button press came to (the chat service's answer to a press). */
export type PressResult =
  'resolved' | 'not_yours' | 'expired' | 'unknown' | 'already_resolved' | 'unrecorded';

/** The short notice a presser sees for each press result (Telegram's toast, Slack's ephemeral). */
export function pressNotice(result: PressResult, answer: ApprovalAnswer): string {
  switch (result) {
    case 'resolved':
      return answer === 'deny'
        ? 'Denied.'
        : answer === 'always'
          ? 'Allowed; the chat says which rule was saved, if a narrow one is safe.'
          : 'Allowed once.';
    case 'not_yours':
      return 'This card is not yours to answer.';
    case 'expired':
      return 'This card expired and was treated as denied.';
    case 'already_resolved':
      return 'This card was already answered.';
    case 'unknown':
      return 'Unknown or stale card.';
    case 'unrecorded':
      return 'Your answer could not be recorded (Custode cannot write its state dir), so nothing was run. The daemon log has the cause.';
  }
}
