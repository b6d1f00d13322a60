#!/usr/bin/env node
// The build (`npm run build`, run by `npm ci` through `prepare`): the CLI as plain JavaScript, so
// `custode` starts without compiling anything. One bundle split by command: `custode hook` loads
// the pipeline and nothing of chat or the daemon, and reads a handful of files instead of several
// hundred small modules. The output dir runtime/built/ is as deep as runtime/cli/ and
// runtime/bench/, so a path a source computes from `import.meta.url` (../../package.json,
// ../../../shared/eval, ../cli/custode.cjs) still points where it did.
//
// A second bundle, runtime/built/quick.cjs, holds only `custode hook` and `custode check`, in one
// CommonJS file that the bin loads with V8's code cache (runtime/cli/quick-loader.cjs); the cache
// is made here, by runtime/build/code-cache.mjs, whenever it does not belong to the bundle.
import { build } from 'esbuild';
import { deepStrictEqual } from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { digestOf, digestPrefix, quickBundle, quickCache } from '../cli/quick-loader.cjs';

const root = join(import.meta.dirname, '../..');
const outdir = join(root, 'runtime/built');

/**
 * Packages loaded from node_modules as they are: they find files next to their own code (the
 * grammar's wasm, pino's worker threads) or only the chat and the daemon load them.
 */
const unbundled = [
  'web-tree-sitter',
  'tree-sitter-bash',
  'pino',
  // CommonJS: Node's own loader gives its named exports to `await import('yaml')`.
  'yaml',
  'grammy',
  '@grammyjs/*',
  '@slack/*',
  'openai',
  'ollama',
  'telegram-test-api',
];

/** Write a built file only when it changed, so a build over an up-to-date tree writes nothing. */
async function writeIfChanged({ path, text }) {
  const current = await readFile(path, 'utf8').catch(() => undefined);
  if (current !== text) await writeFile(path, text);
}

/** Chunks of an earlier build that this one no longer makes. */
async function removeStale(outputs) {
  const kept = new Set(outputs.map(({ path }) => path));
  const names = await readdir(outdir).catch(() => []);
  const stale = names
    .filter((name) => /^chunk-\w+\.js$/.test(name))
    .map((name) => join(outdir, name))
    .filter((path) => !kept.has(path));
  await Promise.all(stale.map((path) => rm(path)));
}

/**
 * Loaded by the quick bundle from node_modules, when a command first needs them (a decision never
 * does, or only one that lists an archive: they run processes, read git objects, convert HTML,
 * take locks, read archives).
 */
const loadedLate = ['execa', 'isomorphic-git', 'html-to-text', 'proper-lockfile', 'tar', 'yauzl'];

/**
 * `defaultConfig()` as JSON, computed from the config schema (runtime/config.ts) by running it
 * here: a decision without a config file then starts without building the schema.
 */
async function defaultConfigJson() {
  const {
    outputFiles: [output],
  } = await build({
    absWorkingDir: root,
    entryPoints: ['runtime/config.ts'],
    bundle: true,
    external: unbundled,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
    write: false,
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', output.text)(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  const config = module.exports.defaultConfig();
  const json = JSON.stringify(config);
  // Nothing in the defaults is lost on the way through JSON (no undefined, no functions).
  deepStrictEqual(JSON.parse(json), config);
  return json;
}

/** The quick bundle's text, its first line naming the SHA-256 of the rest. */
async function quickText() {
  const {
    outputFiles: [output],
  } = await build({
    absWorkingDir: root,
    entryPoints: ['runtime/cli/quick.ts'],
    outfile: quickBundle,
    bundle: true,
    // web-tree-sitter's code is bundled here, code-cached (parse.ts names its wasm's path): its
    // CommonJS build, since its ES build declares a `var require` of its own.
    external: [...unbundled.filter((name) => name !== 'web-tree-sitter'), ...loadedLate],
    alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // import() becomes require(): V8's code cache drops a vm.Script's dynamic-import callback
    // ("A dynamic import callback was not specified"). Node 20.19 requires ES modules (execa).
    supported: { 'dynamic-import': false },
    // What a source computes from import.meta (paths next to it) holds in CommonJS too.
    define: {
      'import.meta.url': 'importMetaUrl',
      'import.meta.dirname': '__dirname',
      CUSTODE_DEFAULT_CONFIG_JSON: JSON.stringify(await defaultConfigJson()),
    },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    // Less text to read and to scan at each start. Names are kept: error names reach answers.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    write: false,
  });
  const digest = createHash('sha256').update(output.text).digest('hex');
  return `${digestPrefix}${digest}\n${output.text}`;
}

/** Make the code cache again unless the one there was made for this bundle. */
async function refreshCodeCache(text) {
  const cached = await readFile(quickCache, 'latin1').catch(() => '');
  if (cached.slice(0, digestOf(text)?.length ?? 0) === digestOf(text)) return;
  execFileSync(process.execPath, [join(root, 'runtime/build/code-cache.mjs')], {
    stdio: 'inherit',
  });
}

const { outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: { main: 'runtime/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  external: unbundled,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
  },
  logLevel: 'warning',
  write: false,
});
const quick = { path: quickBundle, text: await quickText() };
await mkdir(outdir, { recursive: true });
await Promise.all([...outputFiles, quick].map(writeIfChanged));
await removeStale(outputFiles);
await refreshCodeCache(quick.text);
