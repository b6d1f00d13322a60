// A credential a file keeps in another encoding has none of its shapes in the file's text as a
// decision reads it: a kubeconfig downloaded from a cloud console keeps its client key as base64
// (`client-key-data:`), and a note exported by Windows PowerShell is UTF-16. `cat | rev` or
// `strings -el | rev` print it past the output check. So a file is judged by what its base64 and
// hex runs decode to (as the output check judges what a call prints) and a UTF-16 file by its
// characters. Real files, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWithOwnState, printedIfUncarded } from './pipeline-helpers.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'what is in my notes';
const KEY =
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAenc0dedKeyBodyXyZ0123456789abcdefghij\n-----END RSA PRIVATE KEY-----\n';
const KEY_B64 = Buffer.from(KEY).toString('base64');
const TOKEN = 'ghp_Utf16T0kenAbCdEfGhIjKlMnOpQrStUvWx12';
let notes: string;
let pipeline: Pipeline;

beforeAll(async () => {
  notes = await makeTempDir('encnotes-');
  await writeFile(
    join(notes, 'kubeconfig.yaml'),
    `apiVersion: v1\nusers:\n- name: me\n  user:\n    client-key-data: ${KEY_B64}\n`,
  );
  await writeFile(
    join(notes, 'export.txt'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`GITHUB_TOKEN=${TOKEN}\r\n`, 'utf16le')]),
  );
  await writeFile(join(notes, 'plain.txt'), 'just a note\n');
  pipeline = await pipelineWithOwnState();
});
afterAll(() => pipeline.close());

function printed(command: string): Promise<string> {
  return printedIfUncarded(pipeline, call('shell_exec', { command, cwd: notes }, intent));
}

describe('a credential a file keeps encoded is not printed without a card', () => {
  it.skipIf(!sandboxWorks)('a base64 key in a kubeconfig', async () => {
    const reversed = [...KEY_B64.slice(0, 40)].reverse().join('');
    expect(await printed('cat kubeconfig.yaml | rev')).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)('a token in a UTF-16 note', async () => {
    const reversed = [...TOKEN].reverse().join('');
    expect(await printed('strings -el export.txt | rev')).not.toContain(reversed);
    expect(await printed("tail -c +3 export.txt | tr -d '\\0' | rev")).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)('still prints a plain note', async () => {
    expect(await printed('cat plain.txt | rev')).toContain('eton a tsuj');
  });
});
