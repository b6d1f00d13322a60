// A turn that fails after a tool ran says what ran: a model that gives out mid-turn, and a
// chat history that cannot be saved at the end (a file where its dir should be), with the
// real app, pipeline and executors. The answer still goes out; nothing is said to have failed
// that did not.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../runtime/app.ts';
import { createScriptedModel, textAnswer, toolCalls } from '../helpers/scripted-model.ts';
import { createRecordingSink, freshStateHome, says, startApp } from './harness.ts';

const home = process.env.HOME ?? '';
let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function readNotes() {
  writeFileSync(join(home, 'notes-after.txt'), 'milk\n');
  return toolCalls({ name: 'fs_read', args: { path: '~/notes-after.txt' } });
}

describe('a failure after a tool ran', () => {
  it('names what ran when the model gives out mid-turn', async () => {
    const model = createScriptedModel();
    model.script(readNotes(), new Error('socket hang up'));
    app = await startApp(model);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('what is on my list?'), sink);
    expect(sink.texts()).toEqual([
      'The model failed unexpectedly; try again, and see the daemon log if it keeps happening. Before it stopped, this ran: fs_read ~/notes-after.txt.',
    ]);
  });

  it('says nothing ran when nothing did', async () => {
    const model = createScriptedModel();
    model.script(new Error('socket hang up'));
    app = await startApp(model);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('hello'), sink);
    expect(sink.texts()).toEqual([
      'The model failed unexpectedly; try again, and see the daemon log if it keeps happening.',
    ]);
  });

  it('still answers when the chat history cannot be saved, and says it will not be remembered', async () => {
    const stateHome = freshStateHome();
    const historyDir = join(stateHome, 'custode', 'history');
    const model = createScriptedModel();
    model.script(readNotes(), () => {
      // The disk changes under the running turn: a file now stands where the history dir was.
      mkdirSync(historyDir, { recursive: true });
      renameSync(historyDir, `${historyDir}.gone`);
      writeFileSync(historyDir, 'not a dir');
      return textAnswer('Your list says: milk.');
    });
    app = await startApp(model, {}, stateHome);
    const sink = createRecordingSink();
    await app.service.handleMessage(says('what is on my list?'), sink);
    expect(sink.texts()).toEqual([
      'Your list says: milk.\n\n(This turn could not be saved in the chat history: a file stands where its directory should be (EEXIST) at the history dir. I will not remember it next time.)',
    ]);
  });
});
