// Telegram rejects messages over 4,096 characters: long answers go out in parts, cut at
// line boundaries so a code block or a list stays readable.

/** Telegram's limit on one message's text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

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
