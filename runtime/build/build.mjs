#!/usr/bin/env node
// The build (`npm run build`, run by `npm ci` through `prepare`): each TypeScript source becomes
// plain JavaScript beside it, so `custode` starts without compiling anything. One file in, one
// file out: relative imports stay imports (`./x.ts` becomes `./x.js`), so a command still loads
// only the modules it imports, and every `import.meta` path stays where it was.
import { build } from 'esbuild';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const sourceDirs = ['runtime', 'executors', 'channels', 'constitution'];

async function sources() {
  const lists = await Promise.all(
    sourceDirs.map(async (dir) =>
      (await readdir(join(root, dir), { recursive: true }))
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
        .map((file) => join(dir, file)),
    ),
  );
  return lists.flat();
}

/** Every relative import stays a separate module, renamed to the built file. */
const keepModules = {
  name: 'keep-modules',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.kind === 'entry-point'
        ? undefined
        : { path: args.path.replace(/\.ts$/, '.js'), external: true },
    );
  },
};

await build({
  absWorkingDir: root,
  entryPoints: await sources(),
  outdir: '.',
  outbase: '.',
  bundle: true,
  packages: 'external',
  plugins: [keepModules],
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
