#!/usr/bin/env node
// The `custode` bin: runs the JavaScript built into runtime/built/ (`npm ci` builds it through
// `prepare`; `npm run build` rebuilds it). `custode hook` and `custode check` start from the quick
// bundle (quick-loader.mjs); every other command from main.js. `custode hook` must never fail
// open: whatever goes wrong there exits 2, the exit code an agent's hook runner reads as "blocked".
import { resolve } from 'node:path';

const argv = process.argv.slice(2);
const failedExit = argv[0] === 'hook' ? 2 : 1;
const built = resolve(import.meta.dirname, '../built/main.js');
const quick = argv[0] === 'hook' || argv[0] === 'check';

/** A file of the build (or the quick loader next to this bin) is missing. */
function notBuilt(error) {
  const where = resolve(import.meta.dirname, '..');
  return (
    (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'ENOENT') &&
    String(error.message).includes(where)
  );
}

try {
  const { main } = quick ? (await import('./quick-loader.mjs')).loadQuick() : await import(built);
  process.exitCode = await main(argv);
} catch (error) {
  process.stderr.write(
    notBuilt(error)
      ? `custode: not built (${error.message}). Fix: run \`npm ci\` or \`npm run build\` in ${resolve(import.meta.dirname, '../..')}\n`
      : `custode: ${error?.stack ?? String(error)}\n`,
  );
  process.exitCode = failedExit;
}
