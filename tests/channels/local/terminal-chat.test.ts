// `custode chat` driven as a person would: a real process, piped stdin, a temp HOME.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../planner/until.ts';
import { freshHome, runCustode, startCustode } from './run-custode.ts';

describe('custode chat', () => {
  it('answers a question, asks inline for a write (bare Enter asks again), writes after "o"', async () => {
    const { code, stdout, stderr, home } = await runCustode(
      ['chat'],
      'what can you do?\n/write ~/x.txt hi\n\no\n/read ~/x.txt\n',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('model offline/offline');
    expect(stdout).toContain('No model is connected');
    expect(stdout).toContain('Approval needed:');
    // The bare Enter did not approve: the question came twice.
    expect(stdout.split('[o]nce / [a]lways / [n]o? ').length - 1).toBe(2);
    expect(stdout).toContain('Please answer o, a or n.');
    expect(stdout).toContain('Allowed once by local:tester.');
    expect(stdout).toContain('fs_write ~/x.txt -> allow');
    expect(readFileSync(join(home, 'x.txt'), 'utf8')).toBe('hi');
    expect(stdout).toContain('fs_read ~/x.txt -> allow');
    expect(stdout.trimEnd().endsWith('hi')).toBe(true);
  });

  it('runs read-only and workspace commands with paths without a card, as the planner proposes them', async () => {
    const { code, stdout, home } = await runCustode(
      ['chat'],
      '/run mkdir -p ~/notes\n/run touch ~/notes/a.txt\n/run ls ~/notes\n',
    );
    expect(code).toBe(0);
    expect(stdout).not.toContain('Approval needed:');
    expect(stdout).toContain('shell_exec mkdir -p ~/notes -> allow');
    expect(stdout).toContain('shell_exec touch ~/notes/a.txt -> allow');
    expect(stdout).toContain('shell_exec ls ~/notes -> allow');
    expect(existsSync(join(home, 'notes', 'a.txt'))).toBe(true);
  });

  it('works in the directory it was started from: relative paths and commands start there', async () => {
    const home = freshHome();
    const project = join(home, 'src', 'app');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'notes.txt'), 'project notes');
    const chat = startCustode(['chat'], {}, home, project);
    chat.child.stdin.end('/read notes.txt\n/run pwd\n/ls\n');
    expect(await chat.exited).toBe(0);
    const stdout = chat.stdout();
    expect(stdout).toContain(`working in ${project}`);
    // The path is shown shortened; what was read shows it was the project's file.
    expect(stdout).toMatch(/fs_read \/\S+ -> allow/);
    expect(stdout).toContain('project notes');
    expect(stdout).toContain(`${project}\n`);
    expect(stdout).toContain(`fs_list ${project} -> allow`);
    expect(stdout).toContain('notes.txt');
  });

  it('declines an open card at end of input and exits cleanly', async () => {
    const { code, stdout, home } = await runCustode(['chat'], '/write ~/never.txt no\n');
    expect(code).toBe(0);
    expect(stdout).toContain('Denied by local:tester.');
    expect(() => readFileSync(join(home, 'never.txt'))).toThrow();
  });

  it('Ctrl-C stops the running turn and the chat goes on; Ctrl-C when idle quits', async () => {
    const chat = startCustode(['chat']);
    chat.child.stdin.write('/run touch ~/started; sleep 20; touch ~/finished\n');
    await until(() => chat.stdout().includes('[o]nce / [a]lways / [n]o? '), 20_000);
    chat.child.stdin.write('o\n');
    await until(() => existsSync(join(chat.home, 'started')), 20_000);
    chat.child.kill('SIGINT');
    await until(
      () => chat.stdout().includes('Stopped: nothing more will run for that request.'),
      20_000,
    );
    chat.child.stdin.write('/ls\n');
    await until(() => chat.stdout().includes(`fs_list ${chat.home} -> allow`), 20_000);
    // If the turn was still sending its answer, Ctrl-C only reports that nothing runs: press again.
    let exited = false;
    void chat.exited.then(() => (exited = true));
    for (let presses = 1; !exited; presses += 1) {
      chat.child.kill('SIGINT');
      await until(
        () => exited || chat.stdout().split('Nothing is running.').length > presses,
        20_000,
      );
    }
    const code = await chat.exited;
    expect(code).toBe(130);
    expect(existsSync(join(chat.home, 'finished'))).toBe(false);
  });
});
