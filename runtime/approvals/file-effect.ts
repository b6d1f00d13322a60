// The effect of a file tool's call on its target, as the card says it: create or overwrite
// (with sizes), edit, delete; whether git or the absence of a file makes it undoable; and the
// diff or the new content's head and tail.
import { hiddenSegment } from '../pipeline/scope-paths.ts';
import { stringArg } from './describe-call.ts';
import type { Effect } from './effect.ts';
import { formatSize, headAndTail, lineDiff, middleCut } from './excerpt.ts';
import type { TargetFacts } from './target-facts.ts';

/** Room for a diff or content on a card (Telegram shows 4,096 characters in one message). */
const CONTENT_MAX = 1500;
/** The absolute path, in the detail. */
const PATH_MAX = 500;

export interface FileCall {
  readonly executor: string;
  readonly args: unknown;
  /** The target, absolute. */
  readonly path: string;
  /** The target as people read it (`~/notes/a.txt`). */
  readonly shown: string;
  /** What is there now; null when it could not be (or was not) looked at. */
  readonly facts: TargetFacts | null;
}

const CAN_GIT = 'Can be undone: git holds this file as it is now (git restore)';

function contentDetail(content: string): string {
  return content.length === 0 ? '(empty file)' : headAndTail(content, CONTENT_MAX);
}

/** The current text when it may be shown: read, and neither the path nor where it leads hidden. */
function shownText(call: FileCall): string | null {
  const { facts } = call;
  if (facts?.exists !== true || facts.text === null) return null;
  return hiddenSegment(call.path) || hiddenSegment(facts.realPath) ? null : facts.text;
}

function diffDetail(before: string | null, after: string): string {
  if (before === null) return `(the current content is not shown)\n${contentDetail(after)}`;
  if (before === after) return '(no change: the new content is the same)';
  const diff = lineDiff(before, after);
  return diff === null ? contentDetail(after) : headAndTail(diff, CONTENT_MAX);
}

function write(call: FileCall): Effect {
  const content = stringArg(call.args, 'content') ?? '';
  const size = formatSize(Buffer.byteLength(content, 'utf8'));
  const { facts } = call;
  if (facts?.exists === false) {
    return {
      verb: 'Create',
      target: call.shown,
      headline: `Create ${call.shown}`,
      reversible: true,
      undo: 'Can be undone: a new file (delete it to undo)',
      detail: contentDetail(content),
    };
  }
  if (facts?.exists === true && facts.kind === 'file') {
    return {
      verb: 'Overwrite',
      target: call.shown,
      headline: `Overwrite ${call.shown} (${formatSize(facts.size)} → ${size})`,
      reversible: facts.gitClean,
      undo: facts.gitClean ? CAN_GIT : 'Cannot be undone: the current content is replaced',
      detail: diffDetail(shownText(call), content),
    };
  }
  return {
    verb: 'Write',
    target: call.shown,
    headline: `Write ${call.shown} (${size})`,
    reversible: false,
    undo: 'Cannot be undone if something is there already (it could not be checked)',
    detail: contentDetail(content),
  };
}

interface Replacement {
  readonly old: string;
  readonly next: string;
}

function replacements(call: FileCall): Replacement[] {
  const { args } = call;
  const one = (value: unknown): Replacement[] => {
    const old = stringArg(value, 'old_text');
    const next = stringArg(value, 'new_text');
    return old === undefined || next === undefined ? [] : [{ old, next }];
  };
  if (call.executor !== 'fs_multi_edit') return one(args);
  const edits =
    args !== null && typeof args === 'object' && Object.hasOwn(args, 'edits')
      ? (args as { edits: unknown }).edits
      : [];
  return Array.isArray(edits) ? edits.flatMap(one) : [];
}

/** The file's text after the edits, when each old text is found exactly once in turn. */
function applied(text: string, edits: readonly Replacement[]): string | null {
  let result = text;
  for (const { old, next } of edits) {
    const at = result.indexOf(old);
    if (at === -1 || result.indexOf(old, at + 1) !== -1) return null;
    result = `${result.slice(0, at)}${next}${result.slice(at + old.length)}`;
  }
  return result;
}

function edit(call: FileCall): Effect {
  const edits = replacements(call);
  const current = shownText(call);
  const after = current === null ? null : applied(current, edits);
  const detail =
    current !== null && after !== null
      ? diffDetail(current, after)
      : headAndTail(edits.map((e) => lineDiff(e.old, e.next) ?? e.next).join('\n'), CONTENT_MAX);
  const clean = call.facts?.exists === true && call.facts.gitClean;
  const count = edits.length > 1 ? ` (${String(edits.length)} changes)` : '';
  return {
    verb: 'Edit',
    target: call.shown,
    headline: `Edit ${call.shown}${count}`,
    reversible: clean,
    undo: clean ? CAN_GIT : 'Cannot be undone: the file is changed in place',
    detail,
  };
}

function remove(call: FileCall): Effect {
  const { facts } = call;
  const { args } = call;
  const recursive =
    args !== null &&
    typeof args === 'object' &&
    Object.hasOwn(args, 'recursive') &&
    (args as { recursive: unknown }).recursive === true;
  const base = { verb: 'Delete', target: call.shown, detail: middleCut(call.path, PATH_MAX) };
  if (facts?.exists === false) {
    return {
      ...base,
      headline: `Delete ${call.shown} (nothing is there)`,
      reversible: true,
      undo: 'Nothing to undo: nothing is there',
    };
  }
  if (facts?.exists === true && facts.kind === 'directory') {
    return {
      ...base,
      headline: recursive
        ? `Delete ${call.shown} and everything in it`
        : `Delete the empty directory ${call.shown}`,
      reversible: false,
      undo: 'Cannot be undone: deleted for good (no trash)',
    };
  }
  const clean = facts?.exists === true && facts.gitClean;
  const size = facts?.exists === true ? ` (${formatSize(facts.size)})` : '';
  return {
    ...base,
    headline: `Delete ${call.shown}${size}`,
    reversible: clean,
    undo: clean ? CAN_GIT : 'Cannot be undone: deleted for good (no trash)',
  };
}

function mkdir(call: FileCall): Effect {
  const there = call.facts?.exists === true;
  return {
    verb: 'Create directory',
    target: call.shown,
    headline: there
      ? `Create directory ${call.shown} (it exists: nothing changes)`
      : `Create directory ${call.shown}`,
    reversible: true,
    undo: there ? 'Nothing to undo' : 'Can be undone: a new directory (remove it to undo)',
    detail: middleCut(call.path, PATH_MAX),
  };
}

/** The effect of a file tool on its one target; null for a tool this does not describe. */
export function fileEffect(call: FileCall): Effect | null {
  switch (call.executor) {
    case 'fs_write':
      return write(call);
    case 'fs_edit':
    case 'fs_multi_edit':
      return edit(call);
    case 'fs_delete':
      return remove(call);
    case 'fs_mkdir':
      return mkdir(call);
    default:
      return null;
  }
}
