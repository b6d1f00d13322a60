// A line that is one `for NAME in WORDS; do BODY; done`: its variable, the words it walks as
// written, and the body's text, so a tier can judge each iteration as the line bash would run.
import type { Node } from 'web-tree-sitter';
import type { ForLoop } from './types.ts';

/** The loop when the whole line is one plain `for … in …` statement; else null. */
export function forLoopOf(root: Node, text: string): ForLoop | null {
  const top = root.namedChildren.filter((node) => node !== null && node.type !== 'comment');
  const [loop] = top;
  if (top.length !== 1 || loop?.type !== 'for_statement') return null;
  const variable = loop.childForFieldName('variable')?.text;
  const body = loop.childForFieldName('body');
  if (variable === undefined || body?.type !== 'do_group') return null;
  const values = loop.childrenForFieldName('value').filter((node) => node !== null);
  // No `in` list walks "$@": not a list of files.
  if (values.length === 0) return null;
  const statements = body.namedChildren.filter((node) => node !== null && node.type !== 'comment');
  const [first] = statements;
  const last = statements[statements.length - 1];
  if (first === undefined || last === undefined) return null;
  return {
    variable,
    values: values.map((node) => text.slice(node.startIndex, node.endIndex)),
    body: text.slice(first.startIndex, last.endIndex),
  };
}
