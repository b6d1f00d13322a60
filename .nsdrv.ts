import { rm } from 'node:fs/promises';
import { throwawayHome } from './runtime/bench/throwaway-home.ts';
import { defaultConfig } from './runtime/config.ts';
import { createPipeline } from './runtime/pipeline/pipeline.ts';
import { mixedCorpus } from './runtime/bench/pipeline.ts';
const { home, env } = await throwawayHome('custode-ns-');
const pipeline = await createPipeline({ config: defaultConfig(), env });
const corpus = mixedCorpus(2000).filter((c) => c.executor !== 'shell_exec');
for (let r = 0; r < 4; r++) for (const c of corpus) await pipeline.evaluate(c);
const inspector = await import('node:inspector/promises');
const session = new inspector.Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 20 }); await session.post('Profiler.start');
const t: number[] = [];
for (let r = 0; r < 3; r++) for (const c of corpus) { const s = performance.now(); await pipeline.evaluate(c); t.push((performance.now() - s) * 1000); }
const { profile } = await session.post('Profiler.stop');
const { writeFileSync } = await import('node:fs');
writeFileSync('/var/tmp/perf9/ns.cpuprofile', JSON.stringify(profile));
t.sort((a, b) => a - b); console.log('non-shell p50', t[Math.floor(t.length / 2)]!.toFixed(0), 'µs', 'p99', t[Math.floor(t.length * 0.99)]!.toFixed(0));
pipeline.close(); await rm(home, { recursive: true, force: true });
