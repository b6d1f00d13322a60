// The warm path: the hook gate behind HTTP, for Claude Code's `http` hooks (or a unix socket).
// `POST /hook/claude-code` with the PreToolUse payload as a JSON body answers 200 with Claude
// Code's JSON. Claude Code reads a non-2xx answer as a non-blocking error (the call runs), so
// every answer to a JSON POST, a failure or another path included, is a 200 that carries a decision.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HookGate } from './gate.ts';
import { claudeCodeBody } from './replies.ts';

export const hookPath = '/hook/claude-code';

/** A hook payload is one tool call; a Write carries a whole file. Larger bodies are refused. */
const maxBodyBytes = 16 * 1024 * 1024;

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBodyBytes) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: object): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The environment variable a Claude Code http hook fills its Authorization header from. */
export const tokenVariable = 'CUSTODE_HOOK_TOKEN';

/** True when the request's Authorization header is `Bearer <token>` (compared in constant time). */
function carriesToken(request: IncomingMessage, token: string): boolean {
  const sent = Buffer.from(request.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return sent.length === wanted.length && timingSafeEqual(sent, wanted);
}

async function handle(
  gate: HookGate,
  token: string | null,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'POST') return send(response, 405, { error: `POST ${hookPath}` });
  // A web page cannot send application/json to another origin without a preflight this server
  // never answers, so a page open in a browser cannot use the gate or fill its audit log.
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    return send(response, 415, { error: 'send the payload as application/json' });
  }
  // What Claude Code sends to another path is a hook set up with a wrong URL (a trailing slash, a
  // query): a 404 would let every call run unchecked, so it is denied, naming the path to use.
  if (request.url !== hookPath) {
    return send(
      response,
      200,
      claudeCodeBody({
        kind: 'deny',
        reason: `Custode: the hook URL's path must be ${hookPath}; blocked`,
      }),
    );
  }
  // 127.0.0.1 answers every local user: only who holds the token (the user who started the
  // server, and their agent's hook) is judged. Anyone else learns nothing of the home; a hook
  // set up without the header blocks every call, so the mistake shows at once.
  if (token !== null && !carriesToken(request, token)) {
    return send(
      response,
      200,
      claudeCodeBody({
        kind: 'deny',
        reason: `Custode: this request does not carry custode serve's token (header Authorization: Bearer $${tokenVariable}); blocked`,
      }),
    );
  }
  const body = await readBody(request);
  const answer =
    body === null
      ? {
          kind: 'fail' as const,
          reason: `Custode: payload over ${String(maxBodyBytes)} bytes; blocked (fail closed)`,
        }
      : await gate.answer(body);
  send(response, 200, claudeCodeBody(answer));
}

/**
 * An HTTP server answering hook payloads through `gate`; the caller listens and closes. With a
 * `token`, only a request whose Authorization header is `Bearer <token>` is judged.
 */
export function createHookServer(gate: HookGate, token: string | null = null): Server {
  return createServer((request, response) => {
    handle(gate, token, request, response).catch((error: unknown) => {
      const reason = `Custode failed (${error instanceof Error ? error.name : 'Error'}); blocked (fail closed)`;
      if (!response.headersSent) send(response, 200, claudeCodeBody({ kind: 'fail', reason }));
      else response.destroy();
    });
  });
}
