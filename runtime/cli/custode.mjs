#!/usr/bin/env node
// The `custode` bin: runs the JavaScript built into runtime/built/ (`npm ci` builds it through
// `prepare`; `npm run build` rebuilds it). `custode hook` must never fail open: whatever goes
// wrong there exits 2, the exit code an agent's hook runner reads as "blocked".
import { resolve } from 'node:path';

const argv = process.argv.slice(2);
const failedExit = argv[0] === 'hook' ? 2 : 1;
const built = resolve(import.meta.dirname, '../built/main.js');

try {
  const { main } = await import(built);
  process.exitCode = await main(argv);
} catch (error) {
  const notBuilt = error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(built);
  process.stderr.write(
    notBuilt
      ? `custode: not built (${error.message}). Fix: run \`npm ci\` or \`npm run build\` in ${resolve(import.meta.dirname, '../..')}\n`
      : `custode: ${error?.stack ?? String(error)}\n`,
  );
  process.exitCode = failedExit;
}
