// HttpOps on node:http/https. The socket connects to the address web_fetch checked (a lookup
// that returns only that address), while Host and TLS SNI keep the URL's host name.
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { ExecutorTimeout, NetworkError } from '../../runtime/errors.ts';
import type { HttpOps, HttpResponse } from './http-ops.ts';

// The network modules load on the first fetch: a decision (`custode hook`, `check`) never needs
// them, and loading them is a good part of a cold start.
const isIP = (host: string): number => process.getBuiltinModule('node:net').isIP(host);

function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_host, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  // No prototype: header names come from the server.
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Read the body up to maxBytes; past it the response is destroyed and the result flagged. */
function readBody(response: IncomingMessage, maxBytes: number): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (truncated: boolean): void => {
      resolve({
        status: response.statusCode ?? 0,
        headers: flatHeaders(response),
        body: Buffer.concat(chunks).subarray(0, maxBytes),
        truncated,
      });
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        finish(true);
        response.destroy();
      }
    });
    response.on('end', () => finish(false));
    response.on('error', reject);
  });
}

/** HttpOps for the real network: lookup resolves every address; get never follows redirects. */
export function createNodeHttpOps(): HttpOps {
  return {
    async lookup(host) {
      if (isIP(host) !== 0) return [host];
      try {
        const answers = await process
          .getBuiltinModule('node:dns/promises')
          .lookup(host, { all: true, verbatim: true });
        return answers.map((answer) => answer.address);
      } catch (error) {
        throw new NetworkError(`cannot resolve ${host}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
    get(url, { address, maxBytes, timeoutMs, signal }) {
      return new Promise((resolve, reject) => {
        const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
        const send = process.getBuiltinModule(
          url.protocol === 'https:' ? 'node:https' : 'node:http',
        ).request;
        const request = send(url, {
          method: 'GET',
          lookup: pinnedLookup(address),
          ...(isIP(host) === 0 ? { servername: host } : {}),
          headers: {
            'user-agent': 'custode-web-fetch/0.1',
            accept: '*/*',
            'accept-encoding': 'identity',
          },
          signal,
        });
        let current: IncomingMessage | undefined;
        const timer = setTimeout(() => {
          const error = new ExecutorTimeout(
            `${url.origin} did not answer within ${String(timeoutMs)} ms`,
          );
          request.destroy(error);
          current?.destroy(error);
        }, timeoutMs);
        request.on('response', (response) => {
          current = response;
          readBody(response, maxBytes)
            .then(resolve, reject)
            .finally(() => clearTimeout(timer));
        });
        request.on('error', (error) => {
          clearTimeout(timer);
          reject(
            error instanceof ExecutorTimeout || signal.aborted
              ? error
              : new NetworkError(`fetching ${url.origin} failed: ${error.message}`, {
                  cause: error,
                }),
          );
        });
        request.end();
      });
    },
  };
}
