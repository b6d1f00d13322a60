// Tests spawn the real `custode` bin, which runs the JavaScript built beside the sources: build
// it once before any test so none runs code older than the TypeScript it tests.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildBeforeTests(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '../../runtime/build/build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
