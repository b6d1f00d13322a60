// A model fault, said to the person in one plain sentence (details go to the operator log).
import { NetworkError, ProviderError } from '../errors.ts';

/** One sentence for a provider failure that survived the retries. */
export function describeProviderFault(error: unknown): string {
  if (error instanceof ProviderError) {
    if (error.status === 401 || error.status === 403)
      return 'The model provider refused the credentials; check OPENAI_API_KEY (or the provider settings) and try again.';
    if (error.status === 429)
      return 'The model provider is rate-limiting us right now; try again in a minute.';
    return `The model provider answered with an error (${error.status === undefined ? 'no status' : String(error.status)}); try again in a moment.`;
  }
  if (error instanceof NetworkError)
    return 'I could not reach the model provider; check the network or the provider settings and try again.';
  return 'The model failed unexpectedly; try again, and see the daemon log if it keeps happening.';
}
