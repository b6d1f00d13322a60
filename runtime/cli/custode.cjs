#!/usr/bin/env node
// The `custode` bin: runs the JavaScript built into runtime/built/ (`npm ci` builds it through
// `prepare`; `npm run build` rebuilds it). `custode hook` and `custode check` start from the quick
// bundle (quick-loader.cjs); every other command from main.js. `custode hook` must never fail
// open: whatever goes wrong there exits 2, the exit code an agent's hook runner reads as "blocked".
// CommonJS: an agent's hook starts a process per tool call, and an ES module entry would start
// Node's ES module loader first (main.js, an ES module, loads it when it is needed).
'use strict';
const { resolve } = require('node:path');
const { pathToFileURL } = require('node:url');

const argv = process.argv.slice(2);
const failedExit = argv[0] === 'hook' ? 2 : 1;
const built = resolve(__dirname, '../built/main.js');
const quick = argv[0] === 'hook' || argv[0] === 'check';

/** A file of the build (or the quick loader next to this bin) is missing. */
function notBuilt(error) {
  const where = resolve(__dirname, '..');
  return (
    ['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND', 'ENOENT'].includes(error?.code) &&
    String(error.message).includes(where)
  );
}

async function start() {
  const { main } = quick
    ? require('./quick-loader.cjs').loadQuick()
    : await import(pathToFileURL(built).href);
  return main(argv);
}

start().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(
      notBuilt(error)
        ? `custode: not built (${error.message}). Fix: run \`npm ci\` or \`npm run build\` in ${resolve(__dirname, '../..')}\n`
        : `custode: ${error?.stack ?? String(error)}\n`,
    );
    process.exitCode = failedExit;
  },
);
