// The fast path of `custode hook` and `custode check`: ask a running `custode serve` over a unix
// socket in the user's runtime dir, so a decision costs a bare node's start plus a warm decision.
// Loads node:fs, node:net and node:path only (the decision bundle, its code cache and the bash
// grammar stay unloaded).
//
// Trust: the socket is used only when its directory is a real directory the user owns that no
// one else may enter (mode 0700 or stricter), its parent is writable by no one else (or sticky),
// and the socket itself is the user's. No server, an untrusted socket, a refused connection, or a
// server that declines (it was started with another config file): the command decides in-process
// as it always did.
//
// One decision per call. Once a server has taken the connection it may read the request, decide
// and write the audit line at any moment, so the client never decides the call a second time: a
// garbled or cut answer, an exit code the command does not give, or no answer within
// `answerTimeoutMs` blocks (a hook exits 2, `custode check` exits 1), with the reason on stderr.
// Never an allow from a bad answer.
//
// The client sends the environment a decision reads (HOME, the XDG dirs, PATH, the judge settings)
// and the server decides with it, as the command would have in its own process.
'use strict';
const { lstatSync } = require('node:fs');
const { join, resolve } = require('node:path');

/**
 * How long a command waits for the server's answer once the server took the call: well past a
 * slow decision (a large Grep tree's walk, a slow git), well within an agent's hook timeout
 * (Claude Code's is 60 s). Past it the call is blocked, not decided again.
 */
const answerTimeoutMs = 30_000;
/** The longest reply read: a reason is a few lines. */
const maxReplyBytes = 1024 * 1024;
/** The environment a decision reads: the server decides with the hook's. */
const contextVariables = [
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'PATH',
  'CUSTODE_JUDGE_KIND',
  'CUSTODE_JUDGE_THRESHOLD',
];

/** Where `custode serve` listens for hooks: $XDG_RUNTIME_DIR/custode, else the state dir. */
function hookSocketDir(env) {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && runtime.startsWith('/')) return join(runtime, 'custode');
  const state = env.XDG_STATE_HOME;
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : require('node:os').homedir();
  return join(
    state !== undefined && state.startsWith('/') ? state : join(home, '.local/state'),
    'custode',
  );
}

function hookSocketPath(env) {
  return join(hookSocketDir(env), 'hook.sock');
}

/**
 * Why the socket at `path` may not be trusted, or null when it may: its directory is a real
 * directory `uid` owns with no access for others, that directory's parent is not open to others'
 * writes (unless sticky), and the socket is `uid`'s.
 */
function untrustedSocket(path, uid) {
  const dir = resolve(path, '..');
  let dirStat, parentStat, socketStat;
  try {
    dirStat = lstatSync(dir);
    parentStat = lstatSync(resolve(dir, '..'));
    socketStat = lstatSync(path);
  } catch (error) {
    return `not there (${error.code ?? 'error'})`;
  }
  if (!dirStat.isDirectory()) return `${dir} is not a directory`;
  if (dirStat.uid !== uid) return `${dir} belongs to uid ${String(dirStat.uid)}`;
  if ((dirStat.mode & 0o077) !== 0)
    return `${dir} is open to others (mode ${(dirStat.mode & 0o777).toString(8)})`;
  const parentOpen = (parentStat.mode & 0o022) !== 0 && (parentStat.mode & 0o1000) === 0;
  if (parentOpen) return `${resolve(dir, '..')} is writable by others`;
  if (parentStat.uid !== uid && parentStat.uid !== 0)
    return `${resolve(dir, '..')} belongs to uid ${String(parentStat.uid)}`;
  if (!socketStat.isSocket()) return `${path} is not a socket`;
  if (socketStat.uid !== uid) return `${path} belongs to uid ${String(socketStat.uid)}`;
  return null;
}

/** What the server decides with: the hook's config file (null: the default) and environment. */
function contextOf(env, configPath) {
  const context = { config: configPath === undefined ? null : resolve(configPath) };
  for (const name of contextVariables) context[name] = env[name] ?? null;
  return context;
}

/** The exit codes a forwarded command gives: a hook blocks with 2, a check always gives 0. */
const exitCodes = { hook: [0, 2], check: [0] };

/**
 * The server's answer: `{ reply }` (the command's stdout, stderr and exit code), `{ declined }`
 * (it did not decide), or null when the text is not one of those whole.
 */
function answerOf(text, command) {
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    return null;
  }
  if (answer === null || typeof answer !== 'object') return null;
  if (typeof answer.declined === 'string') return { declined: answer.declined };
  const { stdout, stderr, exitCode } = answer;
  if (typeof stdout !== 'string' || typeof stderr !== 'string') return null;
  if (!exitCodes[command].includes(exitCode)) return null;
  return { reply: { stdout, stderr, exitCode } };
}

/**
 * Send `request` to the server at `path`. Resolves to `{ reply }`; to null when no server took the
 * connection (none listens, refused) or it declined the request; to `{ failure }` when it took it
 * and gave no usable answer within `waitMs`.
 */
function ask(path, request, command, waitMs) {
  return new Promise((done) => {
    const { connect } = require('node:net');
    const chunks = [];
    let size = 0;
    let sent = false;
    let settled = false;
    const finish = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(outcome);
    };
    const failed = (why) => finish(sent ? { failure: why } : null);
    const socket = connect(path);
    const timer = setTimeout(() => failed(`no answer in ${String(waitMs / 1000)} s`), waitMs);
    socket.on('error', (error) => failed(`the connection failed (${error.code ?? 'error'})`));
    socket.on('data', (chunk) => {
      size += chunk.length;
      if (size > maxReplyBytes) return failed('an answer too long to be one');
      chunks.push(chunk);
    });
    // An answer is whole only when the server ends it: a cut connection is no answer.
    socket.on('end', () => {
      const answer = answerOf(Buffer.concat(chunks).toString('utf8'), command);
      if (answer === null) return failed('an answer that is not one whole reply');
      finish(answer.declined === undefined ? answer : null);
    });
    // Once connected the server may get the whole request and decide the call: from there on
    // it is not decided again here.
    socket.on('connect', () => {
      sent = true;
    });
    socket.end(JSON.stringify(request));
  });
}

/**
 * Ask a running server about one call. `call` is what forwardedCall gives, `payload` the
 * command's stdin, read whole. Resolves to `{ reply }`, to `{ failure }` (the command must block,
 * see the note at the top), or to null when the command must decide in its own process.
 */
async function forwarded(call, payload, env, waitMs = answerTimeoutMs) {
  const path = hookSocketPath(env);
  if (typeof process.getuid !== 'function') return null;
  if (untrustedSocket(path, process.getuid()) !== null) return null;
  const context = contextOf(env, call.config);
  const request =
    call.command === 'hook'
      ? { agent: call.agent, context, payload }
      : { command: 'check', context, payload };
  const outcome = await ask(path, request, call.command, waitMs);
  if (outcome === null || outcome.reply !== undefined) return outcome;
  return { failure: `custode serve at unix:${path} had the call and gave ${outcome.failure}` };
}

/** A command's reply when the server had its call and gave no usable answer: blocked. */
function blockedReply(call, failure) {
  const how =
    call.command === 'hook'
      ? { exitCode: 2, stderr: `custode hook: ${failure}; blocked (fail closed)` }
      : { exitCode: 1, stderr: `custode check: ${failure}; no decision given (fail closed)` };
  const fix =
    'It may have decided and logged the call already, so it is not decided again here. Fix: restart custode serve, or stop it (commands then decide in their own process).';
  return { stdout: '', stderr: `${how.stderr}. ${fix}\n`, exitCode: how.exitCode };
}

/** `--config path` or `--config=path` as the rest of a command line gives it, else null. */
function configOf(rest) {
  if (rest.length === 0) return { config: undefined };
  if (rest.length === 2 && rest[0] === '--config' && rest[1] !== '') return { config: rest[1] };
  if (rest.length === 1 && rest[0].startsWith('--config=') && rest[0].length > 9)
    return { config: rest[0].slice(9) };
  return null;
}

/**
 * The command a running server may answer, as argv gives it: `custode hook <agent> [--config
 * path]` or a single `custode check [--config path]`; else null (help, another option, `check
 * --jsonl`, whose stream is answered line by line as it comes: the full command answers those).
 */
function forwardedCall(argv) {
  const [command, ...rest] = argv;
  if (command === 'check') {
    const options = configOf(rest);
    return options === null ? null : { command, ...options };
  }
  const [agent, ...options] = rest;
  if (command !== 'hook' || (agent !== 'claude-code' && agent !== 'codex')) return null;
  const config = configOf(options);
  return config === null ? null : { command, agent, ...config };
}

/**
 * Read all of stdin as UTF-8: with blocking reads, which spare a process the stream machinery of
 * process.stdin; a stdin that would block (a non-blocking pipe) is read on as a stream.
 */
function readStdin() {
  const { readSync } = require('node:fs');
  const chunks = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const text = () => Buffer.concat(chunks).toString('utf8');
  for (;;) {
    let read;
    try {
      read = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code !== 'EAGAIN') return Promise.reject(error);
      return new Promise((done, fail) => {
        process.stdin.on('data', (chunk) => chunks.push(chunk));
        process.stdin.on('end', () => done(text()));
        process.stdin.on('error', fail);
      });
    }
    if (read === 0) return Promise.resolve(text());
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
}

/**
 * Write `text` to file descriptor `fd` (1 or 2) with blocking writes; what a non-blocking pipe
 * refuses goes through the process's stream, which waits for it.
 */
function writeOut(fd, text) {
  const { writeSync } = require('node:fs');
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      (fd === 1 ? process.stdout : process.stderr).write(bytes);
      return;
    }
  }
}

module.exports = {
  writeOut,
  blockedReply,
  contextOf,
  contextVariables,
  forwarded,
  forwardedCall,
  hookSocketDir,
  hookSocketPath,
  readStdin,
  untrustedSocket,
};
