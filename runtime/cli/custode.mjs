#!/usr/bin/env node
// The `custode` bin: runs the TypeScript sources directly through tsx (no build step, so a
// fresh clone works after `npm ci`).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
