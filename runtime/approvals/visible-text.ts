// Text on a card shows what is really there: a right-to-left override can make `txt.exe` read
// as `exe.txt`, a carriage return or an escape sequence can repaint a terminal line. Every
// such character is written out as `\uXXXX`, in the card model, so every channel shows it.

// Controls (C0, DEL, C1), format characters (bidi embeddings, overrides, isolates and marks,
// zero-width characters, the BOM, tags) and the line and paragraph separators.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

function escaped(c: string): string {
  const hex = (c.codePointAt(0) ?? 0).toString(16).toUpperCase();
  return hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
}

/** `text` with every control, bidi or invisible character shown as `\uXXXX` (not \n or \t). */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => (c === '\n' || c === '\t' ? c : escaped(c)));
}

/** One line: newlines and tabs shown as `\n` and `\t` too (a headline cannot hide a second line). */
export function visibleLine(text: string): string {
  return visibleText(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}
