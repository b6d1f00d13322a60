// A credential kept compressed (a gzipped note, a `.tar.gz` backup of a project with its `.env`
// and an ssh key, git's own zlib objects of a token committed once) has none of its shapes in the
// bytes a decision reads. Code nobody reviewed inflates it (`gzip.open`, `tarfile`,
// `zlib.decompress`) and prints it reversed; `xxd -p` prints the compressed bytes for the next
// call to inflate. So the decision reads a compressed file's text as it inflates, and code run
// in a work tree whose repository stores a credential asks, as git printing it does.
// Real files, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWithOwnState, printedIfUncarded } from './pipeline-helpers.ts';
import { git } from './planted-files.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'look at what is in my downloads';
const TOKEN = 'ghp_C0mpressedT0kenAbCdEfGhIjKlMnOpQrStU';
const reversed = [...TOKEN].reverse().join('');
let downloads: string;
let work: string;
let repo: string;
let pipeline: Pipeline;

beforeAll(async () => {
  downloads = await makeTempDir('downloads-');
  work = await makeTempDir('work-');
  await writeFile(join(work, 'notes.txt'), 'nothing here\n');
  await writeFile(join(downloads, 'keys.txt.gz'), gzipSync(`GITHUB_TOKEN=${TOKEN}\n`));
  const backup = await makeTempDir('backup-');
  await mkdir(join(backup, 'proj'));
  await writeFile(join(backup, 'proj', 'settings.ini'), `token = ${TOKEN}\n`);
  spawnSync('tar', ['-czf', join(downloads, 'backup.tgz'), '-C', backup, '.']);
  spawnSync('zip', ['-qr', join(downloads, 'backup.zip'), '.'], { cwd: backup });
  spawnSync('tar', ['-cJf', join(downloads, 'backup.tar.xz'), '-C', backup, '.']);
  spawnSync('tar', ['-cjf', join(downloads, 'backup.tar.bz2'), '-C', backup, '.']);
  // A repository whose first commit held the token, blanked by the second: its loose objects.
  repo = `${await makeTempDir('zhist-')}/app`;
  git('init', '-q', repo);
  await writeFile(join(repo, 'config.ini'), `token=${TOKEN}\n`);
  git('-C', repo, 'add', '-A');
  git('-C', repo, '-c', 'user.email=a@a', '-c', 'user.name=a', 'commit', '-qm', 'first');
  await writeFile(join(repo, 'config.ini'), 'token=\n');
  git('-C', repo, '-c', 'user.email=a@a', '-c', 'user.name=a', 'commit', '-qam', 'blank');
  pipeline = await pipelineWithOwnState();
});
afterAll(() => pipeline.close());

/** The name of the repository's one pack, once `git gc` made it. */
function packName(): string {
  return readdirSync(join(repo, '.git', 'objects', 'pack')).find((n) => n.endsWith('.pack')) ?? '';
}

/** Python that inflates every zlib stream in a file (a pack's objects) and prints each reversed. */
function inflateEveryStream(path: string): string {
  return `python3 -c "import zlib
d = open('${path}', 'rb').read()
for i in range(len(d)):
    try: print(zlib.decompressobj().decompress(d[i:i + 4096])[::-1])
    except Exception: pass"`;
}

function printed(command: string, cwd: string): Promise<string> {
  return printedIfUncarded(pipeline, call('shell_exec', { command, cwd }, intent));
}

describe('a credential kept compressed is not printed without a card', () => {
  it.skipIf(!sandboxWorks)('code inflating a gzipped note or a tar.gz backup', async () => {
    for (const command of [
      `python3 -c "import gzip; print(gzip.open('${downloads}/keys.txt.gz').read()[::-1])"`,
      `python3 -c "import tarfile; t = tarfile.open('${downloads}/backup.tgz'); print([t.extractfile(m).read()[::-1] for m in t if m.isfile()])"`,
      `node -e "console.log([...require('zlib').gunzipSync(require('fs').readFileSync('${downloads}/keys.txt.gz')).toString()].reverse().join(''))"`,
    ])
      expect(await printed(command, work), command).not.toContain(reversed.slice(0, 20));
  });

  it.skipIf(!sandboxWorks)('code inflating a zip, an xz or a bzip2 backup', async () => {
    for (const command of [
      `python3 -c "import zipfile; z = zipfile.ZipFile('${downloads}/backup.zip'); print([z.read(n)[::-1] for n in z.namelist()])"`,
      `python3 -c "import tarfile; t = tarfile.open('${downloads}/backup.tar.xz'); print([t.extractfile(m).read()[::-1] for m in t if m.isfile()])"`,
      `python3 -c "import tarfile; t = tarfile.open('${downloads}/backup.tar.bz2'); print([t.extractfile(m).read()[::-1] for m in t if m.isfile()])"`,
    ])
      expect(await printed(command, work), command).not.toContain(reversed.slice(0, 20));
  });

  it('the compressed bytes themselves', async () => {
    for (const command of [`xxd -p ${downloads}/keys.txt.gz`, `od -An -tx1 backup.tgz`])
      expect(
        (await pipeline.evaluate(call('shell_exec', { command, cwd: downloads }, intent))).decision,
        command,
      ).not.toBe('allow');
  });

  it.skipIf(!sandboxWorks)("code reading git's objects of a blanked token", async () => {
    const command = `python3 -c "import zlib, glob; [print(zlib.decompress(open(f, 'rb').read())[::-1]) for f in glob.glob('.git/objects/*/*')]"`;
    expect(await printed(command, repo)).not.toContain(reversed.slice(0, 20));
    git('-C', repo, 'gc', '-q');
    const packed = inflateEveryStream('.git/objects/pack/' + packName());
    expect(await printed(packed, repo)).not.toContain(reversed.slice(0, 20));
    // The same pack named from another directory: judged as that repository's history.
    const named = inflateEveryStream(join(repo, '.git', 'objects', 'pack', packName()));
    expect(await printed(named, work)).not.toContain(reversed.slice(0, 20));
  });

  // Code's view hides every compressed file or archive in its tree, clean or not (a format the
  // decision cannot unpack holds text no check read): the code still runs, without a card.
  it.skipIf(!sandboxWorks)(
    'still runs code over a tree of clean compressed files, hidden from it',
    async () => {
      const clean = await makeTempDir('cleangz-');
      await writeFile(join(clean, 'log.gz'), gzipSync('hello world\n'));
      await writeFile(join(clean, 'notes.txt'), 'plain notes\n');
      expect(
        await printed(
          `python3 -c "print(open('notes.txt').read()[::-1]); import gzip; gzip.open('log.gz').read()"`,
          clean,
        ),
      ).toContain('seton nialp');
      expect(
        (await pipeline.evaluate(call('shell_exec', { command: 'xxd log.gz', cwd: clean }, intent)))
          .decision,
      ).toBe('allow');
    },
  );
});
