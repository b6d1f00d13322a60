// A line with one `for NAME in WORDS; do BODY; done` at its top (alone, among `;` statements, or
// last in a `&&` chain): its variable, the words it walks as written, the body's text, and the
// text around it, so a tier can judge each iteration as the line bash would run.
import type { Node } from 'web-tree-sitter';
import type { ForLoop } from './types.ts';

/** The top-level for statement: a statement of its own, or the last element of a top-level list. */
function topLoop(root: Node): Node | null {
  const top = root.namedChildren.filter((node) => node !== null && node.type !== 'comment');
  const loops = top.flatMap((node) => {
    if (node.type === 'for_statement') return [node];
    const last = node.type === 'list' ? node.namedChildren[node.namedChildren.length - 1] : null;
    return last?.type === 'for_statement' ? [last] : [];
  });
  return loops.length === 1 ? (loops[0] ?? null) : null;
}

/** The loop at the line's top (see above), when there is exactly one; else null. */
export function forLoopOf(root: Node, text: string): ForLoop | null {
  const loop = topLoop(root);
  if (loop === null) return null;
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
    body: statements.map((node) => text.slice(node.startIndex, node.endIndex)),
    before: text.slice(0, loop.startIndex),
    after: text.slice(loop.endIndex),
  };
}
