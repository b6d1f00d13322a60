// Long answers go out in parts, cut at line boundaries so a code block or a list stays
// readable: Telegram rejects a message over 4,096 characters, and Slack shows one over about
// 4,000 as a truncated wall ("see more"), cutting a 34,000-character text at 40,000.

/** Telegram's limit on one message's text. */
export const TELEGRAM_TEXT_LIMIT = 4096;
/** Slack's advice for one message's text (its hard limit is 40,000). */
export const SLACK_TEXT_LIMIT = 4000;

/** Parts of `text`, each at most `limit` characters, cut at newlines, else at spaces, else hard. */
export function splitMessage(text: string, limit = TELEGRAM_TEXT_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    const newline = window.lastIndexOf('\n');
    const space = window.lastIndexOf(' ');
    const cut = newline > 0 ? newline : space > 0 ? space : limit;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut === newline || cut === space ? cut + 1 : cut);
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}
