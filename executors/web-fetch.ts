// web_fetch: GET one http(s) URL as readable text. Every hop is checked (scheme, domain
// allowlist, resolved addresses) and the connection goes to the checked address, so DNS
// cannot rebind between the check and the connect.
import * as z from 'zod';
import { ExecutorTimeout, InvalidArguments, NetworkError } from '../runtime/errors.ts';
import { defineExecutor, type ExecutorContext } from './define.ts';
import { bareHost } from './web/address-policy.ts';
import { checkedAddresses } from './web/checked-host.ts';
import type { HttpResponse } from './ops/http-ops.ts';
import { bodyToText } from './web/body-text.ts';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new InvalidArguments(`"${text}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArguments(`${url.protocol} URLs are not fetched; only http and https`);
  }
  return url;
}

/** GET from the first checked address that answers (an IPv6 address may be unroutable here). */
async function getFromAny(
  url: URL,
  addresses: readonly string[],
  limits: { maxBytes: number; timeoutMs: number },
  ctx: ExecutorContext,
): Promise<HttpResponse> {
  let failure: unknown;
  for (const address of addresses) {
    try {
      return await ctx.ops.http.get(url, { ...limits, address, signal: ctx.signal });
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      failure = error;
    }
  }
  throw failure;
}

/** Fetch a URL (following checked redirects) and return its final URL, status, type and text. */
export const webFetch = defineExecutor({
  name: 'web_fetch',
  description:
    'Fetch an http or https URL (a web page or a JSON API) and return its content as readable text (HTML is converted to text). Usually runs without asking the person, where curl or wget in shell_exec needs their approval for anything but a plain GET printed to the output. Private and local network addresses are refused.',
  args: z.lazy(() =>
    z.strictObject({
      url: z.string().min(1).describe('The http(s) URL to fetch.'),
      max_bytes: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('Largest body to read; capped by the configuration.'),
      timeout_ms: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('Time limit; capped by the configuration.'),
    }),
  ),
  capabilities: { access: 'network', pathArgs: [], urlArg: 'url' },
  critical: false,
  skipJudge: false,
  async run(args, ctx) {
    const { web } = ctx.config;
    const maxBytes = Math.min(args.max_bytes ?? web.max_bytes, web.max_bytes);
    const timeoutMs = Math.min(args.timeout_ms ?? web.timeout_ms, web.timeout_ms);
    // One time budget for the whole chain of redirects, not one per hop.
    const deadline = Date.now() + timeoutMs;
    let url = parseUrl(args.url);
    for (let hop = 0; ; hop += 1) {
      const addresses = await checkedAddresses(bareHost(url), ctx.config.web, (host) =>
        ctx.ops.http.lookup(host),
      );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new ExecutorTimeout(`${args.url} took more than ${String(timeoutMs)} ms`);
      const response = await getFromAny(url, addresses, { maxBytes, timeoutMs: left }, ctx);
      const location = response.headers.location;
      if (redirectStatuses.has(response.status) && location !== undefined) {
        if (hop >= web.max_redirects) {
          throw new NetworkError(
            `more than ${String(web.max_redirects)} redirects (web.max_redirects), last to ${location}`,
          );
        }
        url = parseUrl(location, url);
        continue;
      }
      const contentType = response.headers['content-type'] ?? '';
      return {
        url: url.toString(),
        status: response.status,
        content_type: contentType,
        text: await bodyToText(response.body, contentType),
        truncated: response.truncated,
      };
    }
  },
});
