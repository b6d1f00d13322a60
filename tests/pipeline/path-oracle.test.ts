// The path oracle every stage and tier asks (runtime/pipeline/paths.ts), asked directly through a
// real pipeline's `paths` over real files in a temp home: a public key is no protected place only
// for a reader, a raw device's metadata is no secret while /etc/shadow's is, the roots hold by
// where links lead, a tool's config in the home is a store by its settings however the home is
// named, and a glob over files or trees finds what would open a protected place.
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { pipelineWith } from './pipeline-helpers.ts';

const PUBLIC_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILocbLAV3pPmYBcX4DPfn8CcSq7D497wl6VQW2sLx4vM me@laptop\n';
// A short plain value: a login only where a tool keeps its settings, not in any file.
const TOOL_SETTINGS = 'clouds:\n  lab:\n    auth:\n      password: hunter\n';

let home: string;
let readable: string;
let writable: string;
let pipeline: Pipeline;

beforeAll(async () => {
  home = await makeTempDir('home-');
  readable = await makeTempDir('readable-');
  writable = await makeTempDir('writable-');
  await mkdir(join(home, '.ssh'));
  await writeFile(join(home, '.ssh', 'id_ed25519.pub'), PUBLIC_KEY);
  await writeFile(join(home, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n');
  await mkdir(join(home, '.config', 'openstack'), { recursive: true });
  await writeFile(join(home, '.config', 'openstack', 'clouds.yaml'), TOOL_SETTINGS);
  await mkdir(join(home, 'project', 'fixtures'), { recursive: true });
  await writeFile(join(home, 'project', 'fixtures', 'clouds.yaml'), TOOL_SETTINGS);
  await writeFile(join(home, 'project', 'README.md'), 'hello\n');
  await symlink(readable, join(writable, 'escape'));
  await symlink(join(home, '.ssh'), join(home, 'project', 'keys'));
  // A tool's config kept in a dotfiles repository and linked into ~/.config.
  await mkdir(join(home, 'dotfiles'));
  await writeFile(join(home, 'dotfiles', 'helm.yaml'), TOOL_SETTINGS);
  await mkdir(join(home, '.config', 'helm'));
  await symlink(join(home, 'dotfiles', 'helm.yaml'), join(home, '.config', 'helm', 'config.yaml'));
  await mkdir(join(home, 'app'));
  await writeFile(join(home, 'app', '.env'), 'API_KEY=q8Zr2mVt5kLp77\n');
  await mkdir(join(home, 'locked'));
  await writeFile(join(home, 'locked', 'a.txt'), 'x');
  await chmod(join(home, 'locked'), 0o000);
  pipeline = await pipelineWith(
    { roots: { read: [readable, writable, '~'], write: [writable, join(home, 'project')] } },
    { ...process.env, HOME: home },
  );
});

// The temp home is removed after the file: an ordinary user cannot remove what it cannot list.
afterAll(async () => {
  await chmod(join(home, 'locked'), 0o755);
});

const asRoot = process.getuid?.() === 0;

describe('the path oracle', () => {
  it.skipIf(asRoot)('cannot clear a glob over a directory it cannot list (root reads any)', () => {
    expect(pipeline.paths.globObstacle(join(home, 'locked', '*'))).toEqual({
      kind: 'unlisted',
      path: join(home, 'locked'),
    });
    expect(pipeline.paths.globMatches(join(home, 'locked', '*'))).toBeNull();
  });

  it('lets a reader read a public key, never a writer, and never the private key', () => {
    const pub = join(home, '.ssh', 'id_ed25519.pub');
    expect(pipeline.paths.protection(pub, { read: true })).toBeNull();
    expect(pipeline.paths.protection(pub)).not.toBeNull();
    expect(pipeline.paths.protection(join(home, '.ssh', 'id_ed25519'), { read: true })).not.toBe(
      null,
    );
    expect(pipeline.paths.protection(join(home, 'project', 'README.md'), { read: true })).toBe(
      null,
    );
  });

  it("treats a raw device's metadata as no secret, and /etc/shadow's as one", () => {
    expect(pipeline.paths.protection('/dev/sda', { metadataOnly: true })).toBeNull();
    expect(pipeline.paths.protection('/dev/sda')).not.toBeNull();
    expect(pipeline.paths.protection('/etc/shadow', { metadataOnly: true })).not.toBeNull();
  });

  it('holds the read and write roots by where links lead, each root on its own', () => {
    const { paths } = pipeline;
    expect(paths.inRoots(join(readable, 'a.txt'), 'read')).toBe(true);
    expect(paths.inRoots(join(writable, 'a.txt'), 'read')).toBe(true);
    expect(paths.inRoots(join(readable, 'a.txt'), 'write')).toBe(false);
    expect(paths.inRoots(join(writable, 'a.txt'), 'write')).toBe(true);
    expect(paths.inRoots(join(home, 'project', 'a.txt'), 'write')).toBe(true);
    expect(paths.inRoots(join(writable, 'escape', 'a.txt'), 'write')).toBe(false);
    expect(paths.inRoots('/etc/hosts', 'read')).toBe(false);
  });

  it("finds a login in a tool's config in the home, by the home's name or its real one, not in a project fixture", async () => {
    const link = join(await makeTempDir('links-'), 'home');
    await symlink(home, link);
    const linked = await pipelineWith({}, { ...process.env, HOME: link });
    const store = join('.config', 'openstack', 'clouds.yaml');
    expect(pipeline.paths.storedCredential(join(home, store))).not.toBeNull();
    expect(linked.paths.storedCredential(join(link, store))).not.toBeNull();
    expect(linked.paths.storedCredential(join(home, store))).not.toBeNull();
    expect(
      pipeline.paths.storedCredential(join(home, '.config', 'helm', 'config.yaml')),
    ).not.toBeNull();
    expect(pipeline.paths.storedCredential(join(home, 'dotfiles', 'helm.yaml'))).toBeNull();
    expect(
      pipeline.paths.storedCredential(join(home, 'project', 'fixtures', 'clouds.yaml')),
    ).toBeNull();
    linked.close();
  });

  it('finds what a glob would open: a protected match, a store below a matched tree, or nothing', () => {
    const { paths } = pipeline;
    expect(paths.globObstacle(join(home, '.ssh', 'id_*'))).toMatchObject({ kind: 'protected' });
    expect(paths.globObstacle(join(home, '.config', '*', 'clouds.yaml'))).toMatchObject({
      kind: 'protected',
    });
    expect(paths.globObstacle(join(home, 'project', '*.md'))).toBeNull();
    expect(paths.globObstacle(join(home, 'proj*'))).toBeNull();
    expect(paths.globObstacle(join(home, 'proj*'), { tree: true })).toMatchObject({
      kind: 'protected',
      path: join(home, 'project', 'keys'),
    });
    // A credential file below a matched tree: the tree cannot be shown whole without a card.
    expect(paths.globObstacle(join(home, 'ap*'))).toBeNull();
    expect(paths.globObstacle(join(home, 'ap*'), { tree: true })).toEqual({
      kind: 'unlisted',
      path: join(home, 'app'),
    });
    expect(paths.globMatches(join(home, 'project', '*.md'))).toEqual([
      join(home, 'project', 'README.md'),
    ]);
  });
});
