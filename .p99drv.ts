import { rm } from 'node:fs/promises';
import { throwawayHome } from './runtime/bench/throwaway-home.ts';
import { defaultConfig } from './runtime/config.ts';
import { createPipeline } from './runtime/pipeline/pipeline.ts';
import { mixedCorpus } from './runtime/bench/pipeline.ts';
import { PerformanceObserver } from 'node:perf_hooks';
const gcs: { start: number; dur: number; kind: number }[] = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push({ start: e.startTime, dur: e.duration, kind: (e as any).detail?.kind }); }).observe({ entryTypes: ['gc'] });
const { home, env } = await throwawayHome('custode-p99-');
const pipeline = await createPipeline({ config: defaultConfig(), env });
const corpus = mixedCorpus(2000);
for (let r = 0; r < 4; r++) for (const c of corpus) await pipeline.evaluate(c);
const rows: { cmd: string; us: number; start: number; end: number }[] = [];
for (const c of corpus) {
  const s = performance.now();
  await pipeline.evaluate(c);
  const e = performance.now();
  rows.push({ cmd: c.executor === 'shell_exec' ? (c.args as any).command : c.executor + ' ' + JSON.stringify(c.args).slice(0, 40), us: (e - s) * 1000, start: s, end: e });
}
const shell = rows.filter((r) => corpus[rows.indexOf(r)]!.executor === 'shell_exec');
const sorted = [...shell].sort((a, b) => b.us - a.us);
const p = (arr: number[], q: number) => [...arr].sort((a, b) => a - b)[Math.min(arr.length - 1, Math.floor((q / 100) * arr.length))]!;
console.log('shell p50', p(shell.map((r) => r.us), 50).toFixed(0), 'p99', p(shell.map((r) => r.us), 99).toFixed(0));
const other = rows.filter((r) => corpus[rows.indexOf(r)]!.executor !== 'shell_exec');
console.log('other p50', p(other.map((r) => r.us), 50).toFixed(0), 'p99', p(other.map((r) => r.us), 99).toFixed(0));
for (const r of sorted.slice(0, 15)) {
  const g = gcs.filter((x) => x.start < r.end && x.start + x.dur > r.start);
  console.log(r.us.toFixed(0).padStart(7), r.cmd.padEnd(50), g.map((x) => `gc${x.kind}:${x.dur.toFixed(1)}`).join(' '));
}
const byCmd = new Map<string, number[]>();
for (const r of shell) { const a = byCmd.get(r.cmd) ?? []; a.push(r.us); byCmd.set(r.cmd, a); }
for (const [k, v] of byCmd) console.log(k.padEnd(50), 'p50', p(v, 50).toFixed(0), 'p90', p(v, 90).toFixed(0), 'max', Math.max(...v).toFixed(0));
const byO = new Map<string, number[]>();
for (const r of other) { const k = r.cmd.split(' ')[0]! + (r.cmd.includes('.ssh') ? ' ssh' : ''); const a = byO.get(k) ?? []; a.push(r.us); byO.set(k, a); }
for (const [k, v] of byO) console.log(k.padEnd(50), 'p50', p(v, 50).toFixed(0), 'p90', p(v, 90).toFixed(0), 'max', Math.max(...v).toFixed(0));
const inWindow = gcs.filter((x) => x.start >= rows[0]!.start);
console.log('gc in timed pass', inWindow.length, 'total ms', inWindow.reduce((a, x) => a + x.dur, 0).toFixed(1), 'major', inWindow.filter((x) => x.kind !== 1).length);
pipeline.close(); await rm(home, { recursive: true, force: true });
