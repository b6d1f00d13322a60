// A line that is one `&&` chain (`cd app && git status && npm test`): each element runs only
// when every one before it succeeded, so a leading `cd DIR` that fails runs nothing else.
import type { Node } from 'web-tree-sitter';

/**
 * The `&&` list tree-sitter hangs a redirection (`a && b > f`) or a pipe (`a && b 2>&1 | c`) of
 * its last element on, where bash gives them to that element alone; null when `node` is not one.
 */
function hungList(node: Node): Node | null {
  const head = node.type === 'pipeline' ? node.namedChildren[0] : node;
  const body = head?.type === 'redirected_statement' ? head.childForFieldName('body') : head;
  return body !== null && body !== undefined && body !== node && body.type === 'list' ? body : null;
}

/** The chain's elements as source text when the whole line is one `&&` chain of two or more; else null. */
export function andChainOf(root: Node, text: string): string[] | null {
  const top = root.namedChildren.filter((node) => node !== null && node.type !== 'comment');
  const [first] = top;
  if (top.length !== 1 || first === undefined) return null;
  // tree-sitter hangs a redirection of the last element (`a && b > f`) on the whole list, and
  // with a pipe after it (`a && b 2>&1 | c`) makes that the first stage of a pipeline, where bash
  // pipes only b: the chain is the list's, its last element running to the end of the line.
  const list = first.type === 'list' ? first : hungList(first);
  if (list === null) return null;
  const elements: string[] = [];
  const starts: number[] = [];
  const visit = (node: Node): boolean => {
    // Inside the chain too it hangs a redirection of an element that ends a left part
    // (`cd app && echo x >> f && ls` as `(cd app && echo x) >> f && ls`), and a pipe after one
    // (`cd app && npm test 2>&1 | tail && ls`): bash gives them to that element alone, which
    // then runs to the redirection's or the pipeline's end.
    const body = hungList(node);
    if (body !== null) {
      if (!visit(body)) return false;
      const start = starts[starts.length - 1] ?? node.startIndex;
      elements[elements.length - 1] = text.slice(start, node.endIndex);
      return true;
    }
    if (node.type !== 'list') {
      starts.push(node.startIndex);
      elements.push(text.slice(node.startIndex, node.endIndex));
      return true;
    }
    if (node.children.some((c) => c !== null && !c.isNamed && c.type !== '&&')) return false;
    return node.namedChildren.every((c) => c !== null && c.type !== 'comment' && visit(c));
  };
  if (!visit(list)) return null;
  const last = starts[starts.length - 1];
  if (last !== undefined) elements[elements.length - 1] = text.slice(last, first.endIndex);
  return elements;
}

/**
 * The line's top-level statements as source text when it is two or more run one after another
 * (`a && b; c`, or one a line), none sent to the background (`a & b`); else null.
 */
export function sequenceOf(root: Node, text: string): string[] | null {
  if (root.children.some((node) => node !== null && node.type === '&')) return null;
  const top = root.namedChildren.filter((node) => node !== null && node.type !== 'comment');
  if (top.length < 2) return null;
  return top.map((node) => text.slice(node.startIndex, node.endIndex));
}
