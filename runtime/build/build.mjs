#!/usr/bin/env node
// The build (`npm run build`, run by `npm ci` through `prepare`): the CLI as plain JavaScript, so
// `custode` starts without compiling anything. One bundle split by command: `custode hook` loads
// the pipeline and nothing of chat or the daemon, and reads a handful of files instead of several
// hundred small modules. The output dir runtime/built/ is as deep as runtime/cli/ and
// runtime/bench/, so a path a source computes from `import.meta.url` (../../package.json,
// ../../../shared/eval, ../cli/custode.mjs) still points where it did.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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
await mkdir(outdir, { recursive: true });
await Promise.all(outputFiles.map(writeIfChanged));
await removeStale(outputFiles);
