// The decision commands (`custode hook`, `custode check`) start from one CommonJS bundle,
// runtime/built/quick.cjs, compiled with V8's code cache (quick.cjs.cache): an agent's hook starts
// a process per tool call, and compiling the bundle is a good part of a cold start (Node 20 has
// no module compile cache). The build (runtime/build/code-cache.mjs) makes the cache by running
// sample calls. V8 checks a cache against its own version and flags, and of the source only its
// length; the first line of the bundle names its SHA-256 and the cache starts with the same
// digest, so a cache of another bundle is never used. A cache V8 refuses costs time, not safety.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';

export const quickBundle = resolve(import.meta.dirname, '../built/quick.cjs');
export const quickCache = `${quickBundle}.cache`;
/** The bundle's first line: this prefix, then the hex SHA-256 of the rest. */
export const digestPrefix = '// sha256 ';
const digestLength = 64;

/** The digest the bundle's first line names, or undefined when it names none. */
export function digestOf(source) {
  return source.startsWith(digestPrefix)
    ? source.slice(digestPrefix.length, digestPrefix.length + digestLength)
    : undefined;
}

/** The cache for `source`, or undefined when there is none or it was made for other text. */
function cacheFor(source) {
  let cache;
  try {
    cache = readFileSync(quickCache);
  } catch {
    return undefined;
  }
  const digest = digestOf(source);
  return digest !== undefined && cache.toString('latin1', 0, digestLength) === digest
    ? cache.subarray(digestLength)
    : undefined;
}

/** Load the quick bundle: its `main`, its code cache so far, and whether a cache was used. */
export function loadQuick() {
  // The bash grammar is 1.3 MB of WebAssembly. Its optimised compile costs a one-shot command
  // about half a second of CPU; V8's baseline compiler (Liftoff) parses a command line well enough.
  setFlagsFromString('--liftoff-only');
  const source = readFileSync(quickBundle, 'utf8');
  const cachedData = cacheFor(source);
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    // The bundle has no import() (the build turns each into require()).
    { filename: quickBundle, cachedData },
  );
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(quickBundle),
    module,
    quickBundle,
    dirname(quickBundle),
  );
  return {
    main: module.exports.main,
    /** The cache of what this process has compiled so far, after the bundle's digest. */
    codeCache: () =>
      Buffer.concat([Buffer.from(digestOf(source) ?? '', 'latin1'), script.createCachedData()]),
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
  };
}
