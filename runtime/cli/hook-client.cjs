// The fast path of `custode hook`: ask a running `custode serve` over a unix socket in the user's
// runtime dir, so a hook costs a bare node's start plus a warm decision. Loads node:fs, node:net
// and node:path only (the decision bundle, its code cache and the bash grammar stay unloaded).
//
// Trust: the socket is used only when its directory is a real directory the user owns that no
// one else may enter (mode 0700 or stricter), its parent is writable by no one else (or sticky),
// and the socket itself is the user's. Anything else, no server, a server that does not answer in
// time, or an answer that is not one whole reply, and the hook decides in-process as it always
// did: a garbled answer is never read as an allow, and deciding is better than a blanket deny (a
// hook that blocks every call while a broken server runs would be switched off).
//
// The hook sends the environment a decision reads (HOME, the XDG dirs, PATH, the judge settings)
// and the server decides with it, as the hook would have in its own process. A server started
// with another config file declines, and the hook decides in-process.
'use strict';
const { lstatSync } = require('node:fs');
const { join, resolve } = require('node:path');

/** Hook requests are short; a server busier than this is not worth waiting for. */
const answerTimeoutMs = 1000;
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

/** A command reply as the server sends it: the hook's stdout, stderr and exit code; else null. */
function replyOf(text) {
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    return null;
  }
  if (reply === null || typeof reply !== 'object') return null;
  const { stdout, stderr, exitCode } = reply;
  if (typeof stdout !== 'string' || typeof stderr !== 'string') return null;
  if (exitCode !== 0 && exitCode !== 2) return null;
  return { stdout, stderr, exitCode };
}

/**
 * Ask the server at `path` about `payload`; resolves to its reply, or to null when there is no
 * usable answer (no server, a timeout, a decline, a reply that does not parse whole).
 */
function ask(path, request) {
  return new Promise((done) => {
    const { connect } = require('node:net');
    const chunks = [];
    let size = 0;
    let settled = false;
    const finish = (reply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(reply);
    };
    const socket = connect(path);
    const timer = setTimeout(() => finish(null), answerTimeoutMs);
    socket.on('error', () => finish(null));
    socket.on('data', (chunk) => {
      size += chunk.length;
      if (size > maxReplyBytes) return finish(null);
      chunks.push(chunk);
    });
    // A reply is whole only when the server ends it: a cut connection is no answer.
    socket.on('end', () => finish(replyOf(Buffer.concat(chunks).toString('utf8'))));
    socket.end(JSON.stringify(request));
  });
}

/**
 * The reply of a running server for this hook call, or null when the hook must decide itself.
 * `payload` is the hook's stdin, read whole.
 */
async function forwarded(agent, configPath, payload, env) {
  const path = hookSocketPath(env);
  if (typeof process.getuid !== 'function') return null;
  if (untrustedSocket(path, process.getuid()) !== null) return null;
  return ask(path, { agent, context: contextOf(env, configPath), payload });
}

/**
 * `custode hook <agent> [--config path]` as argv gives it: the agent and the config path, or null
 * for any other command line (help, an unknown option: the full command answers those).
 */
function hookCall(argv) {
  const [command, agent, ...rest] = argv;
  if (command !== 'hook' || (agent !== 'claude-code' && agent !== 'codex')) return null;
  if (rest.length === 0) return { agent, config: undefined };
  if (rest.length === 2 && rest[0] === '--config' && rest[1] !== '')
    return { agent, config: rest[1] };
  if (rest.length === 1 && rest[0].startsWith('--config=') && rest[0].length > 9)
    return { agent, config: rest[0].slice(9) };
  return null;
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
  contextOf,
  contextVariables,
  forwarded,
  hookCall,
  hookSocketDir,
  hookSocketPath,
  readStdin,
  replyOf,
  untrustedSocket,
};
