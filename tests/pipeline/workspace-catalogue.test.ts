// The workspace rules read a command's words the way the tools do, and their examples hold.
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../runtime/errors.ts';
import { loadCatalogue, type ReadOnlyCatalogue } from '../../runtime/pipeline/read-only.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';
import {
  BUILT_IN_WORKSPACE,
  type WorkspaceRuleSpec,
} from '../../runtime/pipeline/workspace/catalogue.ts';
import {
  checkWorkspaceExamples,
  loadWorkspaceCatalogue,
  matchWorkspace,
  type WorkspaceCatalogue,
} from '../../runtime/pipeline/workspace/match.ts';

let catalogue: WorkspaceCatalogue;
let readOnly: ReadOnlyCatalogue;
beforeAll(async () => {
  await initShellParser();
  catalogue = loadWorkspaceCatalogue();
  readOnly = loadCatalogue([]);
});

const dirs = new Set(['docs']);
function effectsOf(command: string) {
  return matchWorkspace(parseShell(command), readOnly, catalogue, {
    readOk: () => true,
    isDirectory: (path) => dirs.has(path),
  });
}

describe('workspace catalogue', () => {
  it('loads the built-in rules, and every built-in example holds', () => {
    expect(catalogue.rules.size).toBeGreaterThan(5);
    expect(BUILT_IN_WORKSPACE.every((rule) => rule.examples.match.length > 0)).toBe(true);
    expect(() => checkWorkspaceExamples()).not.toThrow();
  });

  it('names the rule and the example that drifted', () => {
    const mkdir = BUILT_IN_WORKSPACE.find((rule) => rule.binary === 'mkdir') as WorkspaceRuleSpec;
    const drifted = { ...mkdir, examples: { match: ['mkdir -m 700 x'], no_match: ['mkdir'] } };
    expect(() => checkWorkspaceExamples([drifted])).toThrow(ConfigError);
    expect(() => checkWorkspaceExamples([drifted])).toThrow(/"mkdir".*"mkdir -m 700 x"/);
  });

  it('reads options like getopt: clusters, attached values, and -- ', () => {
    expect(effectsOf("git commit -am 'wip'")).toMatchObject({ repository: true, reads: [] });
    expect(effectsOf('git commit --message=wip -- src/a.ts')).toMatchObject({
      reads: ['src/a.ts'],
    });
    expect(effectsOf('cp -rp src backup')).toMatchObject({
      reads: ['src'],
      targets: [{ path: 'backup', mode: 'create' }],
    });
    expect(effectsOf('cp -rf src backup')).toBeNull();
    expect(effectsOf('cp -- -n x')).toMatchObject({ reads: ['-n'] });
  });

  it('names the file a copy lands on inside an existing directory', () => {
    expect(effectsOf('cp a.txt b.txt docs')).toMatchObject({
      targets: [
        { path: 'docs/a.txt', mode: 'create' },
        { path: 'docs/b.txt', mode: 'create' },
      ],
    });
    expect(effectsOf('cp a.txt b.txt c.txt')).toBeNull();
    expect(effectsOf('mv draft.md docs')).toMatchObject({
      targets: [
        { path: 'draft.md', mode: 'move' },
        { path: 'docs/draft.md', mode: 'create' },
      ],
    });
  });

  it('counts redirections as writes: > creates, >> appends, <> is refused', () => {
    expect(effectsOf('echo a > x.txt 2>&1')).toMatchObject({
      rule: 'echo',
      targets: [{ path: 'x.txt', mode: 'create' }],
    });
    expect(effectsOf('echo a &>> log.txt')).toMatchObject({
      targets: [{ path: 'log.txt', mode: 'append' }],
    });
    expect(effectsOf('cat <> x.txt')).toBeNull();
    expect(effectsOf('tee -a build.log < input.txt')).toMatchObject({
      reads: ['input.txt'],
      targets: [{ path: 'build.log', mode: 'append' }],
    });
  });

  it('reads dd and tar operands as the tools do', () => {
    expect(effectsOf('dd if=/dev/urandom of=seed.bin bs=16 count=1')).toMatchObject({
      reads: ['/dev/urandom'],
      targets: [{ path: 'seed.bin', mode: 'create' }],
    });
    expect(effectsOf('dd if=a of=b seek=10')).toBeNull();
    expect(effectsOf('dd if=a')).toBeNull();
    expect(effectsOf('tar -cvzf out.tgz src docs')).toMatchObject({
      reads: ['src', 'docs'],
      targets: [{ path: 'out.tgz', mode: 'create' }],
    });
    expect(effectsOf('tar cf out.tar --to-command=sh src')).toBeNull();
    expect(effectsOf('tar xf out.tar')).toBeNull();
  });

  it('asks for deletions to be checked as such, and new branches only as new branches', () => {
    expect(effectsOf('rm -rf build')).toMatchObject({
      targets: [{ path: 'build', mode: 'remove' }],
    });
    expect(effectsOf('rm --no-preserve-root -rf /')).toBeNull();
    expect(effectsOf('git checkout -b feature/x')).toMatchObject({ repository: true });
    expect(effectsOf('git checkout -b feature/x origin/main')).toBeNull();
    expect(effectsOf('git checkout main')).toBeNull();
  });
});
