// A turn cut by a crash gets a word after the restart: real `custode daemon` processes on
// Telegram (the emulator) with a scripted OpenAI-wire model that runs one read and then
// hangs; the first daemon is killed with SIGKILL mid-turn, the next one tells the chat what
// had finished, once.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshHome, startCustode, type RunningCustode } from '../channels/local/run-custode.ts';
import {
  buttonData,
  buttons,
  startEmulator,
  type Emulator,
} from '../channels/telegram/emulator.ts';
import { reply, startOpenAiServer, type ScriptedServer } from '../helpers/openai-server.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function turnLog(home: string): string {
  const dir = join(home, '.local', 'state', 'custode', 'turns');
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}

function daemon(home: string, emulator: Emulator, model: ScriptedServer): RunningCustode {
  const running = startCustode(
    ['daemon'],
    {
      CUSTODE_LOG_LEVEL: 'info',
      TELEGRAM_BOT_TOKEN: emulator.token,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${model.url}/v1`,
    },
    home,
  );
  cleanup.push(async () => {
    running.child.kill('SIGKILL');
    await running.exited;
  });
  return running;
}

describe('a turn cut by a crash', () => {
  it('is told after the restart: what it asked, what had finished, that nothing more runs', async () => {
    const emulator = await startEmulator();
    cleanup.push(() => emulator.stop());
    const model = await startOpenAiServer();
    cleanup.push(() => model.close());
    const home = freshHome();
    mkdirSync(join(home, '.config', 'custode'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'custode', 'config.yaml'),
      `llm:\n  provider: openai\n  model: scripted\n  max_retries: 0\nchannels:\n  telegram:\n    enabled: true\n    api_root: ${emulator.apiRoot}\n    allowed_users: [1]\n`,
    );
    writeFileSync(join(home, 'list.txt'), 'milk\n');
    model.script(reply.call('fs_read', { path: '~/list.txt' }), reply.hang());

    const first = daemon(home, emulator, model);
    await vi.waitFor(() => expect(first.stderr()).toContain('daemon serving'), {
      timeout: 60_000,
      interval: 100,
    });
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('what is on my list?'));
    // The read ran and is logged; the model now hangs on the next step.
    await vi.waitFor(() => expect(turnLog(home)).toContain('"type":"step"'), {
      timeout: 30_000,
      interval: 100,
    });
    expect(model.requests).toHaveLength(2);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(emulator.botMessages(1)).toHaveLength(0);

    const second = daemon(home, emulator, model);
    const [word] = await vi.waitFor(
      () => {
        const messages = emulator.botMessages(1);
        if (messages.length === 0) throw new Error('no word yet');
        return messages;
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(word?.text).toMatch(
      /^Custode stopped unexpectedly \(around \d{4}-\d\d-\d\d \d\d:\d\d UTC\) while working on "what is on my list\?", so that request did not finish\. These steps had finished: fs_read ~\/list\.txt\. A step after them may have been cut off part way\. Nothing more will run for it; ask again if you still want it\.$/,
    );
    await vi.waitFor(() => expect(turnLog(home)).toContain('told after the restart'));
    second.child.kill('SIGTERM');
    await second.exited;

    // Told once: the next start finds the turn closed.
    const third = daemon(home, emulator, model);
    await vi.waitFor(() => expect(third.stderr()).toContain('daemon serving'), {
      timeout: 60_000,
      interval: 100,
    });
    expect(emulator.botMessages(1)).toHaveLength(1);
  }, 150_000);

  it('is told after the restart when the crash came between an approval and the end of the approved call', async () => {
    const emulator = await startEmulator();
    cleanup.push(() => emulator.stop());
    const model = await startOpenAiServer();
    cleanup.push(() => model.close());
    const home = freshHome();
    mkdirSync(join(home, '.config', 'custode'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'custode', 'config.yaml'),
      `llm:\n  provider: openai\n  model: scripted\n  max_retries: 0\nchannels:\n  telegram:\n    enabled: true\n    api_root: ${emulator.apiRoot}\n    allowed_users: [1]\n`,
    );
    const done = join(home, 'approved-done.txt');
    model.script(reply.call('shell_exec', { command: `sleep 3 && touch ${done}` }));

    const first = daemon(home, emulator, model);
    await vi.waitFor(() => expect(first.stderr()).toContain('daemon serving'), {
      timeout: 60_000,
      interval: 100,
    });
    const user = emulator.client(1);
    await user.sendMessage(user.makeMessage('mark it done after a pause'));
    const card = (await emulator.waitForBot(1, (ms) => ms.some((m) => buttons(m).length > 0))).find(
      (m) => buttons(m).length > 0,
    );
    await user.sendCallback(user.makeCallbackQuery(buttonData(card, 'Allow once')));
    // The press is taken and the turn resumed: the approved command is now running.
    await vi.waitFor(() => expect(turnLog(home)).toContain('"type":"turn_resumed"'), {
      timeout: 30_000,
      interval: 20,
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const before = emulator.botMessages(1).length;

    const second = daemon(home, emulator, model);
    const word = await emulator.waitForBot(1, (ms) =>
      ms.slice(before).some((m) => m.text.startsWith('Custode stopped unexpectedly')),
    );
    expect(word.slice(before).map((m) => m.text)).toEqual([
      expect.stringMatching(
        /while working on "mark it done after a pause", so that request did not finish\. No step of it had finished\. The step you had allowed, shell_exec sleep 3 && touch [^,]+, had not finished: it may have run in part or not at all, so check it before asking again\. Nothing more will run for it/,
      ),
    ]);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 150_000);
});
