// The decision commands (`custode hook`, `custode check`) start from one CommonJS bundle,
// runtime/built/quick.cjs, compiled with V8's code cache (quick.cjs.cache): an agent's hook starts
// a process per tool call, and compiling the bundle is a good part of a cold start (Node 20 has
// no module compile cache). The build (runtime/build/code-cache.mjs) makes the cache by running
// sample calls. V8 checks a cache against its own version and flags, and of the source only its
// length; the first line of the bundle names its SHA-256 and the cache starts with the same
// digest, so a cache of another bundle is never used. A cache V8 refuses costs time, not safety.
// CommonJS, as the bin is: an ES module entry starts Node's ES module loader, about 6 ms of a
// start that is about 30 ms in all for a bare node.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, resolve } = require('node:path');
const { setFlagsFromString } = require('node:v8');
const vm = require('node:vm');

const quickBundle = resolve(__dirname, '../built/quick.cjs');
const quickCache = `${quickBundle}.cache`;
/** The bundle's first line: this prefix, then the hex SHA-256 of the rest. */
const digestPrefix = '// sha256 ';
const digestLength = 64;

/** The digest the bundle's first line names, or undefined when it names none. */
function digestOf(source) {
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
function loadQuick() {
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
  const bundle = { exports: {} };
  script.runInThisContext()(
    bundle.exports,
    createRequire(quickBundle),
    bundle,
    quickBundle,
    dirname(quickBundle),
  );
  return {
    main: bundle.exports.main,
    /** The cache of what this process has compiled so far, after the bundle's digest. */
    codeCache: () =>
      Buffer.concat([Buffer.from(digestOf(source) ?? '', 'latin1'), script.createCachedData()]),
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
  };
}

module.exports = { digestOf, digestPrefix, loadQuick, quickBundle, quickCache };
