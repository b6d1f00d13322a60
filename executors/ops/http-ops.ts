// Network side effects: DNS and one HTTP request without following redirects
// (web_fetch follows them itself, re-checking every hop).

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The body was cut at maxBytes. */
  readonly truncated: boolean;
}

export interface HttpOps {
  /** All addresses the host resolves to. */
  lookup(host: string): Promise<readonly string[]>;
  /** GET url, connecting only to `address`, with SNI/Host of the URL's host. */
  get(
    url: URL,
    options: { address: string; maxBytes: number; timeoutMs: number; signal: AbortSignal },
  ): Promise<HttpResponse>;
}
