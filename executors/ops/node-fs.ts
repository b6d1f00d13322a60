// FsOps on node:fs/promises: the real filesystem.
import {
  chmod,
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import type { FsOps } from './fs-ops.ts';

/** FsOps backed by the real filesystem; rm never forces (a missing path is ENOENT). */
export function createNodeFsOps(): FsOps {
  return {
    readFile: (path) => readFile(path),
    writeFile: (path, data) => writeFile(path, data),
    rename: (from, to) => rename(from, to),
    link: (from, to) => link(from, to),
    chmod: (path, mode) => chmod(path, mode),
    stat: (path) => stat(path),
    lstat: (path) => lstat(path),
    readdir: (path) => readdir(path, { withFileTypes: true }),
    mkdir: async (path, options) => {
      await mkdir(path, options);
    },
    rm: (path, options) => rm(path, { recursive: options.recursive, force: false }),
    rmdir: (path) => rmdir(path),
    unlink: (path) => unlink(path),
    realpath: (path) => realpath(path),
  };
}
