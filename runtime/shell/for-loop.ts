// A line with one `for NAME in WORDS; do BODY; done` at its top (alone, among `;` statements, or
// last in a `&&` chain): its variable, the words it walks as written, the body's text, and the
// text around it, so a tier can judge each iteration as the line bash would run.
import type { Node } from 'web-tree-sitter';
import type { ForLoop, LoopCounterStart } from './types.ts';

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

/** The statements of a top-level list or line, in order (`a && b && c` is three). */
function statementsOf(node: Node): Node[] {
  if (node.type !== 'list') return [node];
  return node.namedChildren.flatMap((child) =>
    child === null || child.type === 'comment' ? [] : statementsOf(child),
  );
}

/** Every `name=` assignment node in a tree (a statement, a command's prefix, `export n=1` …). */
function assignedNames(node: Node): string[] {
  const own =
    node.type === 'variable_assignment' ? [node.childForFieldName('name')?.text ?? ''] : [];
  return [
    ...own,
    ...node.namedChildren.flatMap((child) => (child === null ? [] : assignedNames(child))),
  ];
}

// The connectors a statement-level `n=1` may sit between and be dropped: it always succeeds, so
// what follows it runs after what precedes it as the two connectors say together.
const DROPPABLE_BEFORE: ReadonlySet<string> = new Set(['', ';', '&&']);
const DROPPABLE_AFTER: ReadonlySet<string> = new Set([';', '&&']);

/**
 * Counters the line starts before the loop: a statement of its own setting a number as bash
 * counts it (no leading zero, which makes it octal: `08` never steps, `010` is 8) (`n=1;`,
 * `A && n=1 &&`), the only assignment of that name before the loop, with the text before the
 * loop as it reads without it (`A && n=1 && B` is `A && B`; with a `;` on either side, `A; B`).
 */
function counterStarts(root: Node, loop: Node, text: string): LoopCounterStart[] {
  const before = root.namedChildren
    .filter((node): node is Node => node !== null && node.type !== 'comment')
    .flatMap((node) => (node.endIndex <= loop.startIndex ? statementsOf(node) : []));
  const parent = loop.parent;
  if (parent?.type === 'list')
    before.push(...statementsOf(parent).filter((node) => node.endIndex <= loop.startIndex));
  const names = before.flatMap(assignedNames);
  const separator = (from: number, to: number): string => text.slice(from, to).trim();
  return before.flatMap((node, i) => {
    const name = node.childForFieldName('name')?.text ?? '';
    const value = node.childForFieldName('value');
    if (
      node.type !== 'variable_assignment' ||
      value === null ||
      !/^(?:0|[1-9][0-9]{0,5})$/.test(value.text)
    )
      return [];
    if (names.filter((n) => n === name).length !== 1) return [];
    const previous = before[i - 1];
    const next = before[i + 1] ?? loop;
    const open = previous === undefined ? '' : separator(previous.endIndex, node.startIndex);
    const close = separator(node.endIndex, next.startIndex);
    if (!DROPPABLE_BEFORE.has(open) || !DROPPABLE_AFTER.has(close)) return [];
    const joined = open === '' ? '' : open === '&&' && close === '&&' ? ' && ' : '; ';
    const start = previous === undefined ? 0 : previous.endIndex;
    const withoutIt = text.slice(0, start) + joined + text.slice(next.startIndex, loop.startIndex);
    return [{ name, start: Number(value.text), before: withoutIt }];
  });
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
    counterStarts: counterStarts(root, loop, text),
    after: text.slice(loop.endIndex),
  };
}
