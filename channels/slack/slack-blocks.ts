// The card model in Slack's Block Kit: every piece of model-supplied text goes in
// plain_text objects, so nothing in a path or command can be read as markup or a mention.
import type { types } from '@slack/bolt';
import type { ApprovalCard } from '../../runtime/approvals/card.ts';
import { middleCut } from '../../runtime/approvals/excerpt.ts';
import { CARD_BUTTONS, cardLines, encodeButton } from '../../runtime/approvals/render.ts';

/** Block Kit's limit on one plain_text section. */
const SECTION_MAX = 3000;
/** Block Kit's limit on a header. */
const HEADER_MAX = 150;

export type SlackBlock = types.KnownBlock;

function plain(text: string): types.PlainTextElement {
  return {
    type: 'plain_text',
    text: text.length <= SECTION_MAX ? text : `${text.slice(0, SECTION_MAX - 1)}…`,
    emoji: false,
  };
}

/** A card as blocks: the facts, then Allow once / Always allow / Deny when it can be answered. */
export function cardBlocks(card: ApprovalCard, approvalId: string | null): SlackBlock[] {
  const [headline = card.headline, ...rest] = cardLines(card);
  const blocks: SlackBlock[] = [
    // Slack's header holds 150 characters: cut in the middle, the end of a command stays.
    { type: 'header', text: plain(middleCut(headline, HEADER_MAX)) },
    { type: 'section', text: plain(rest.join('\n')) },
  ];
  if (approvalId !== null && card.kind === 'approval') {
    blocks.push({
      type: 'actions',
      block_id: `card:${approvalId}`,
      elements: CARD_BUTTONS.map((button) => ({
        type: 'button',
        text: plain(button.label),
        // The action id carries the approval id and the answer; value repeats it for tooling.
        action_id: encodeButton(approvalId, button.answer),
        value: encodeButton(approvalId, button.answer),
        ...(button.answer === 'deny'
          ? { style: 'danger' as const }
          : button.answer === 'once'
            ? { style: 'primary' as const }
            : {}),
      })),
    });
  }
  return blocks;
}

/** A decided card: its text only, no buttons left to press. */
export function resolvedBlocks(text: string): SlackBlock[] {
  return [{ type: 'section', text: plain(text) }];
}

/** Slack's text fields treat &, < and > as markup: escape them so text shows as written. */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
