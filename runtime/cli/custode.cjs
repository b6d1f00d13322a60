#!/usr/bin/env node
// The `custode` bin: runs the JavaScript built into runtime/built/ (`npm ci` builds it through
// `prepare`; `npm run build` rebuilds it). `custode hook` and `custode check` start from the quick
// bundle (quick-loader.cjs); every other command from main.js. `custode hook` and a single
// `custode check` first ask a running `custode serve` over its unix socket (hook-client.cjs).
// `custode hook` must never fail open: whatever goes wrong there exits 2, the exit code an agent's
// hook runner reads as "blocked".
// CommonJS: an agent's hook starts a process per tool call, and an ES module entry would start
// Node's ES module loader first (main.js, an ES module, loads it when it is needed).
'use strict';
const { resolve } = require('node:path');

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

/**
 * `custode hook` or a single `custode check`: a running `custode serve` answers over its unix
 * socket when it can (hook-client.cjs); when no server took the call, the quick bundle decides,
 * with the input already read; when one took it and gave no usable answer, the call is blocked.
 */
async function forward(call) {
  const client = require('./hook-client.cjs');
  const payload = await client.readStdin();
  const outcome = await client.forwarded(call, payload, process.env);
  if (outcome !== null) {
    const reply = outcome.reply ?? client.blockedReply(call, outcome.failure);
    client.writeOut(1, reply.stdout);
    client.writeOut(2, reply.stderr);
    return reply.exitCode;
  }
  const { Readable } = require('node:stream');
  const { main } = require('./quick-loader.cjs').loadQuick();
  const io = {
    stdin: Readable.from([Buffer.from(payload, 'utf8')]),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  };
  return main(argv, io);
}

async function start() {
  const call = require('./hook-client.cjs').forwardedCall(argv);
  if (call !== null) return forward(call);
  const { main } = quick
    ? require('./quick-loader.cjs').loadQuick()
    : await import(require('node:url').pathToFileURL(built).href);
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
