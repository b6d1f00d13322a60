// Whether a syntax tree shows all of its source: what the parse leaves out is never judged
// as if it were not there.
import type { Node } from 'web-tree-sitter';

const BLANK = /^(?:\s|\\\n)*$/;

/**
 * True when the tree leaves out source text other than blanks and line continuations.
 * tree-sitter-bash drops some words without an ERROR node (the `-` of `python3 - <<EOF`);
 * what the parse does not show must not be judged as if it were not there.
 */
export function dropsText(root: Node, source: string): boolean {
  let covered = 0;
  const stack: Node[] = [root];
  const leaves: Node[] = [];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (node.childCount === 0) leaves.push(node);
    else for (let i = node.childCount - 1; i >= 0; i -= 1) stack.push(node.child(i) as Node);
  }
  for (const leaf of leaves) {
    if (leaf.startIndex > covered && !BLANK.test(source.slice(covered, leaf.startIndex)))
      return true;
    covered = Math.max(covered, leaf.endIndex);
  }
  return !BLANK.test(source.slice(covered));
}
