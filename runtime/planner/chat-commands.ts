// The chat commands answered before the model: /help, /rules, /rules rm N. (/reset and
// /stop touch the running turn, so the chat service handles them itself.)
import { renderRuleLine } from '../approvals/render.ts';
import type { RuleStore } from '../approvals/types.ts';
import { offlineHelp } from '../llm/offline.ts';

const commandHelp = [
  'Commands:',
  "  /reset        forget this chat's history",
  '  /stop         cancel the running turn (and a card waiting for an answer)',
  '  /rules        list your always-allow rules',
  '  /rules rm N   remove rule N',
  '  /help         this help',
].join('\n');

/** With a model, the offline commands are words like any other: say so, or /run looks broken. */
const modelNote = [
  'A model is connected: say what you want in plain words. /run, /read, /ls, /write and /fetch',
  'are not commands here: they go to the model as text, like the rest of your message.',
].join('\n');

/** The answer to a /help, /rules or /rules rm command, or null when the text is not one. */
export async function answerCommand(
  text: string,
  sender: string,
  rules: RuleStore,
  offline: boolean,
): Promise<string | null> {
  const words = text.trim().split(/\s+/);
  if (words[0] === '/help' && words.length === 1)
    return `${commandHelp}\n\n${offline ? offlineHelp : modelNote}`;
  if (words[0] !== '/rules') return null;
  if (words.length === 1) {
    const list = await rules.list(sender);
    if (list.length === 0)
      return 'You have no always-allow rules. Answer "always" on a card to add one.';
    return [
      'Your always-allow rules:',
      ...list.map((rule, index) => renderRuleLine(rule, index + 1)),
    ].join('\n');
  }
  const n = Number(words[2]);
  if (words[1] !== 'rm' || words.length !== 3 || !Number.isInteger(n) || n < 1)
    return 'Usage: /rules (list) or /rules rm N (remove rule N).';
  return (await rules.remove(sender, n))
    ? `Removed rule ${String(n)}.`
    : `There is no rule ${String(n)}; /rules lists them.`;
}
