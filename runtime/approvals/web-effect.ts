// The effect of a fetch: what leaves the machine. A URL carrying a query sends data (the
// headline names its keys: "Send ?token=… to example.com"); any fetch tells a host about us.
import type { Effect } from './effect.ts';
import { middleCut } from './excerpt.ts';

const HEADLINE_URL_MAX = 110;
/** The URL whole in the detail up to this (a card must fit one message). */
const URL_MAX = 1500;

/** The effect of fetching `url` (text as the model gave it). */
export function webEffect(url: string | undefined): Effect {
  const text = url ?? '(no URL)';
  if (url === undefined || !URL.canParse(url)) {
    return {
      verb: 'Fetch',
      target: middleCut(text, HEADLINE_URL_MAX),
      headline: `Fetch ${middleCut(text, HEADLINE_URL_MAX)}`,
      reversible: false,
      undo: 'Data leaves the machine: the request goes out',
      detail: middleCut(text, URL_MAX),
    };
  }
  const parsed = new URL(url);
  const host = middleCut(parsed.hostname.toLowerCase(), 100);
  const keys = [...new Set(parsed.searchParams.keys())];
  const user = parsed.username === '' ? [] : ['a user name and password'];
  if (keys.length === 0 && user.length === 0) {
    return {
      verb: 'Fetch',
      target: middleCut(url, HEADLINE_URL_MAX),
      headline: `Fetch ${middleCut(url, HEADLINE_URL_MAX)}`,
      reversible: false,
      undo: `Data leaves the machine: ${host} learns the address asked for`,
      detail: middleCut(url, URL_MAX),
    };
  }
  const query = keys.length === 0 ? '' : `?${keys.map((key) => `${key}=…`).join('&')}`;
  const sent = middleCut([query, ...user].filter((s) => s !== '').join(' and '), 80);
  return {
    verb: 'Send',
    target: host,
    headline: `Send ${sent} to ${host}`,
    reversible: false,
    undo: `Cannot be undone: data leaves the machine (${sent} goes to ${host})`,
    detail: middleCut(url, URL_MAX),
  };
}
