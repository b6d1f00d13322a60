// Glob patterns (`*`, `?`, `**`, `[abc]`, `{a,b}`) compiled to a RegExp over `/`-separated
// relative paths. Node 20 has no fs.glob, and a dependency is not worth this much code.
import { InvalidArguments } from '../runtime/errors.ts';

function escapeRegExp(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** Compile a glob to an anchored RegExp; InvalidArguments on an unbalanced `[` or `{`. */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern.charAt(i);
    if (char === '*') {
      if (pattern.charAt(i + 1) === '*') {
        const slashAfter = pattern.charAt(i + 2) === '/';
        // `**/` matches zero or more whole directories; a bare `**` matches anything.
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) throw new InvalidArguments(`glob "${pattern}": unclosed [`);
      const body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
      out += body.startsWith('!') ? `[^/${body.slice(1)}]` : `[${body}]`;
      i = end;
    } else if (char === '{') {
      braceDepth += 1;
      out += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth -= 1;
      out += ')';
    } else if (char === ',' && braceDepth > 0) {
      out += '|';
    } else {
      out += escapeRegExp(char);
    }
  }
  if (braceDepth !== 0) throw new InvalidArguments(`glob "${pattern}": unclosed {`);
  return new RegExp(`^${out}$`);
}
