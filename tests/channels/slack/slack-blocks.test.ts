import { describe, expect, it } from 'vitest';
import {
  cardBlocks,
  escapeSlackText,
  resolvedBlocks,
} from '../../../channels/slack/slack-blocks.ts';
import type { ApprovalCard } from '../../../runtime/approvals/card.ts';
import { decodeButton } from '../../../runtime/approvals/render.ts';

const card: ApprovalCard = {
  kind: 'approval',
  headline: 'Run echo <!channel> & *bold*',
  verb: 'Run',
  target: 'echo',
  reversible: false,
  executorClass: 'shell',
  executor: 'shell_exec',
  detail: 'echo <!channel> & *bold* <@U123>',
  score: 0.8,
  reason: 'policy: shell_exec changes state and needs approval',
};

describe('Slack blocks', () => {
  it('puts every model-supplied text in plain_text, and buttons carry the approval id', () => {
    const blocks = cardBlocks(card, 'abcdefghijklmnopqrstuv');
    const texts = JSON.stringify(blocks);
    expect(texts).not.toContain('mrkdwn');
    expect(blocks[0]).toEqual({
      type: 'header',
      text: {
        type: 'plain_text',
        text: 'Approval needed: Run echo <!channel> & *bold*',
        emoji: false,
      },
    });
    const actions = blocks.find((b) => b.type === 'actions');
    const ids =
      actions?.type === 'actions'
        ? actions.elements.map((e) => ('action_id' in e ? e.action_id : ''))
        : [];
    expect(ids.map((id) => (id === undefined ? null : decodeButton(id)))).toEqual([
      { approvalId: 'abcdefghijklmnopqrstuv', answer: 'once' },
      { approvalId: 'abcdefghijklmnopqrstuv', answer: 'always' },
      { approvalId: 'abcdefghijklmnopqrstuv', answer: 'deny' },
    ]);
  });

  it('has no buttons for a refusal or a resolved card', () => {
    expect(
      cardBlocks({ ...card, kind: 'refusal', advice: 'Rephrase.' }, null).some(
        (b) => b.type === 'actions',
      ),
    ).toBe(false);
    expect(resolvedBlocks('Run echo\\nDenied by slack:U1.')).toEqual([
      {
        type: 'section',
        text: { type: 'plain_text', text: 'Run echo\\nDenied by slack:U1.', emoji: false },
      },
    ]);
  });

  it('a long headline keeps its end in the 150-character header; the rest is in the section', () => {
    const headline = `Run echo ${'x'.repeat(200)} && git push --force origin main`;
    const blocks = cardBlocks(
      {
        ...card,
        headline,
        undo: 'Cannot be undone: a command can change anything it reaches',
        network: 'Needs the network (hosts unknown)',
        always: 'Always allow saves no rule: none is narrow enough here, so it allows this once',
      },
      'abcdefghijklmnopqrstuv',
    );
    const header = blocks[0]?.type === 'header' ? blocks[0].text.text : '';
    expect(header).toHaveLength(150);
    expect(header.endsWith('&& git push --force origin main')).toBe(true);
    expect(blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'plain_text',
        text: [
          'Cannot be undone: a command can change anything it reaches',
          'Needs the network (hosts unknown)',
          'echo <!channel> & *bold* <@U123>',
          'Why: policy: shell_exec changes state and needs approval',
          'Always allow saves no rule: none is narrow enough here, so it allows this once',
          'Details: shell (shell_exec) · vaglio score 0.80',
        ].join('\n'),
        emoji: false,
      },
    });
  });

  it('escapes the three characters Slack reads as markup in text fields', () => {
    expect(escapeSlackText('a <!channel> & <@U1> b')).toBe(
      'a &lt;!channel&gt; &amp; &lt;@U1&gt; b',
    );
  });
});
