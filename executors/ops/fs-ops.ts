// File side effects, injected so executors stay testable and nothing happens at import.
import type { Dirent, Stats } from 'node:fs';

export interface FsOps {
  readFile(path: string): Promise<Buffer>;
  writeFile(path: string, data: string | Buffer): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** A hard link: fails with EEXIST when `to` exists (a write that must not replace anything). */
  link(from: string, to: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  readdir(path: string): Promise<Dirent[]>;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
  rm(path: string, options: { recursive: boolean }): Promise<void>;
  rmdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  realpath(path: string): Promise<string>;
}
