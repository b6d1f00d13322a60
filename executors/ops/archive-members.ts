// What an archive would unpack, read when a call to unpack it is decided (tar's own parser,
// yauzl for zip: never a hand-written reader), and the identity of the file that was read, so
// the run can refuse an archive that changed after the decision.
import {
  closeSync,
  fstatSync,
  openSync,
  readSync,
  statSync,
  constants,
  type BigIntStats,
} from 'node:fs';
// tar and yauzl (with zlib, crypto and streams) are loaded when an archive is first read: a
// decision that reads none starts without them.
import type { ReadEntry } from 'tar';
import type { Entry } from 'yauzl';

export type ArchiveFormat = 'tar' | 'zip';

/** One member: its name as stored, what it is, and its size when unpacked. */
export interface ArchiveMember {
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'other';
  readonly size: number;
}

/** The members, and the identity of the file they were read from (fileIdentity). */
export interface ArchiveListing {
  readonly members: readonly ArchiveMember[];
  readonly identity: string;
}

/** Most members a decision reads; a larger archive is not unpacked without a card. */
export const ARCHIVE_MEMBER_LIMIT = 2_000;
/** Most bytes a decision reads to list a tar (compressed, as stored). */
const ARCHIVE_READ_LIMIT = 256 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** Device, inode, size and both change times: any write to the file changes one of them. */
function identityOf(stats: BigIntStats): string {
  return [stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].join(':');
}

/** The identity of the file at `path` now (links followed), or null when there is none. */
export function fileIdentity(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return stats.isFile() ? identityOf(stats) : null;
  } catch {
    return null;
  }
}

/** A tar entry's type as a member kind: plain files and directories, anything else `other`. */
function tarKind(entry: ReadEntry): ArchiveMember['kind'] {
  if (entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile')
    return 'file';
  return entry.type === 'Directory' ? 'directory' : 'other';
}

/** A tar's members (plain, gzip or brotli, as tar's parser detects), or null on any warning. */
async function tarMembers(fd: number, size: bigint): Promise<ArchiveMember[] | null> {
  if (size > BigInt(ARCHIVE_READ_LIMIT)) return null;
  const { Parser } = await import('tar');
  const members: ArchiveMember[] = [];
  let bad = false;
  const parser = new Parser({
    strict: true,
    onwarn: () => {
      bad = true;
    },
    onReadEntry: (entry) => {
      members.push({ name: entry.path, kind: tarKind(entry), size: entry.size ?? 0 });
      if (members.length > ARCHIVE_MEMBER_LIMIT) bad = true;
      entry.resume();
    },
  });
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('close', resolve);
    parser.on('error', () => {
      bad = true;
      resolve();
    });
  });
  const buffer = Buffer.alloc(CHUNK);
  for (;;) {
    const read = readSync(fd, buffer, 0, CHUNK, null);
    if (read === 0 || bad) break;
    parser.write(Buffer.from(buffer.subarray(0, read)));
  }
  parser.end();
  await ended;
  return bad ? null : members;
}

/** A zip's members from its central directory, or null when one is encrypted or unreadable. */
async function zipMembers(fd: number): Promise<ArchiveMember[] | null> {
  const { default: yauzl } = await import('yauzl');
  const zip = await yauzl.fromFdPromise(fd, { lazyEntries: true, autoClose: false });
  if (zip.entryCount > ARCHIVE_MEMBER_LIMIT) return null;
  return new Promise((resolve) => {
    const members: ArchiveMember[] = [];
    let bad = false;
    zip.on('entry', (entry: Entry) => {
      // The Unix mode sits in the high half of the external attributes (made on Unix).
      const type = (entry.externalFileAttributes >>> 16) & 0o170000;
      const directory = entry.fileName.endsWith('/');
      const plain = type === 0 || type === (directory ? 0o040000 : 0o100000);
      if ((entry.generalPurposeBitFlag & 1) !== 0) bad = true;
      members.push({
        name: entry.fileName,
        kind: !plain ? 'other' : directory ? 'directory' : 'file',
        size: entry.uncompressedSize,
      });
      if (bad) resolve(null);
      else zip.readEntry();
    });
    zip.on('end', () => {
      resolve(members);
    });
    zip.on('error', () => {
      resolve(null);
    });
    zip.readEntry();
  });
}

/**
 * The members of the archive at `path` (links followed to a regular file) and the identity of
 * the file read; null when it is no regular file, cannot be read, is encrypted, holds more
 * than ARCHIVE_MEMBER_LIMIT members or anything its reader warns about.
 */
export async function readArchiveMembers(
  path: string,
  format: ArchiveFormat,
): Promise<ArchiveListing | null> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) return null;
    const members = format === 'tar' ? await tarMembers(fd, stats.size) : await zipMembers(fd);
    // Read from this one open file: the identity is that of the bytes listed.
    return members === null ? null : { members, identity: identityOf(stats) };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
