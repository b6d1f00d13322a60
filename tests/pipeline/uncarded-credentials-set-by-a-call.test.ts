// A config written as code sets its password by a call, the name quoted and a comma before the
// value: WordPress's wp-config.php (`define('DB_PASSWORD', '…')`), `putenv("API_TOKEN", "…")`,
// `os.environ.setdefault("SECRET_KEY", "…")`. It is a credential-named setting with a literal value
// like `DB_PASSWORD = "…"`, and `cat wp-config.php | rev` prints it past the output check. Real
// files, real pipeline, real sandbox.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWithOwnState, printedIfUncarded } from './pipeline-helpers.ts';

const sandboxWorks =
  spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true']).status === 0;
const intent = 'check my site config';
const PASSWORD = 'Wp4ssw0rdXyzQ';
let site: string;
let pipeline: Pipeline;

beforeAll(async () => {
  site = await makeTempDir('site-');
  await writeFile(join(site, 'wp-config.php'), `<?php\ndefine('DB_PASSWORD', '${PASSWORD}');\n`);
  await writeFile(join(site, 'start.py'), `os.environ.setdefault("SECRET_KEY", "${PASSWORD}")\n`);
  await writeFile(join(site, 'plain.php'), "<?php\ndefine('WP_DEBUG', false);\n");
  pipeline = await pipelineWithOwnState();
});
afterAll(() => pipeline.close());

function printed(command: string): Promise<string> {
  return printedIfUncarded(pipeline, call('shell_exec', { command, cwd: site }, intent));
}

describe('a password a config sets by a call is not printed without a card', () => {
  it.skipIf(!sandboxWorks)('define() in wp-config.php, setdefault() in python', async () => {
    const reversed = [...PASSWORD].reverse().join('');
    expect(await printed('cat wp-config.php | rev')).not.toContain(reversed);
    expect(await printed('cat start.py | rev')).not.toContain(reversed);
  });

  it.skipIf(!sandboxWorks)('still prints a config that sets no credential', async () => {
    expect(await printed('cat plain.php | rev')).toContain('GUBED_PW');
  });
});
