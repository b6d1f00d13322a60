// The audit log's schema (good and bad fixture lines) and its failure behaviour.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../runtime/config.ts';
import { createPipeline } from '../../runtime/pipeline/pipeline.ts';
import {
  auditRecordSchema,
  createAuditLog,
  type AuditRecord,
} from '../../runtime/log/audit-log.ts';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { call, pipelineWith } from '../pipeline/pipeline-helpers.ts';

const verdict = {
  approved: false,
  reason: 'forbidden path: ssh keys and config (~/.ssh)',
  ts: '2026-11-21T10:00:00.000Z',
  judge_kind: 'rule-based-v1',
  score: 0,
  confidence: 1,
  blocked_by: 'guard',
  signals: ['forbidden path'],
};
const good = {
  v: 1,
  event: 'decision',
  ts: '2026-11-21T10:00:00.000Z',
  intent: 'read my key',
  executor: 'fs_read',
  args_keys: ['path'],
  context_keys: [],
  stage: 'guard',
  decision: 'deny',
  verdict,
};

describe('audit schema', () => {
  it('accepts a decision line and an approval line', () => {
    expect(auditRecordSchema.safeParse(good).success).toBe(true);
    const approval = {
      v: 1,
      event: 'approval',
      ts: good.ts,
      approval_id: 'abc',
      executor: 'fs_write',
      args_keys: ['content', 'path'],
      channel: 'telegram',
      sender: 'telegram:1',
      decided_by: 'telegram:1',
      answer: 'once',
    };
    expect(auditRecordSchema.safeParse(approval).success).toBe(true);
  });

  it.each([
    ['args values', { ...good, args: { path: '~/.ssh/id_rsa' } }],
    ['a result', { ...good, result: 'file contents' }],
    ['a value inside the verdict', { ...good, verdict: { ...verdict, args: { path: 'x' } } }],
    ['no version', { ...good, v: undefined }],
    ['version 2', { ...good, v: 2 }],
    ['a score above 1', { ...good, verdict: { ...verdict, score: 1.5 } }],
  ])('rejects a line with %s', (_, line) => {
    expect(auditRecordSchema.safeParse(line).success).toBe(false);
  });
});

describe('audit schema: every value each field may take', () => {
  const approval = {
    v: 1,
    event: 'approval',
    ts: good.ts,
    approval_id: 'abc',
    executor: 'fs_write',
    args_keys: ['path'],
    channel: 'slack',
    sender: 'slack:U1',
    decided_by: 'slack:U1',
    answer: 'once',
  };

  it.each([
    ...['validation', 'scope', 'guard', 'judge', null].map((stage) => ({ ...good, stage })),
    ...['allow', 'ask', 'deny'].map((decision) => ({ ...good, decision })),
    ...['guard', 'judge', null].map((blocked_by) => ({
      ...good,
      verdict: { ...verdict, blocked_by },
    })),
    ...['once', 'always', 'deny', 'expired'].map((answer) => ({ ...approval, answer })),
    {
      ...good,
      verdict: {
        ...verdict,
        strategy: 'majority',
        judges: [{ name: 'a', kind: 'llm-v1', approved: true, score: 1, confidence: 1 }],
      },
    },
  ])('accepts %j', (line) => {
    expect(auditRecordSchema.safeParse(line).success).toBe(true);
  });

  it.each([
    { ...good, stage: 'planner' },
    { ...good, decision: 'maybe' },
    { ...good, verdict: { ...verdict, blocked_by: 'person' } },
    { ...approval, answer: 'later' },
    { ...approval, value: 'x' },
    {
      ...good,
      verdict: {
        ...verdict,
        judges: [{ name: 'a', kind: 'k', approved: true, score: 1, confidence: 1, args: 'x' }],
      },
    },
    { ...good, event: 'other' },
  ])('rejects %j', (line) => {
    expect(auditRecordSchema.safeParse(line).success).toBe(false);
  });
});

describe('audit log file', () => {
  it('writes one schema-valid line per decision', async () => {
    const pipeline = await pipelineWith();
    await pipeline.evaluate(call('fs_read', { path: '/tmp/a' }, 'read a'));
    await pipeline.evaluate(call('nope', { x: 1 }, 'bad tool'));
    pipeline.close();
    const dir = join(process.env.XDG_DATA_HOME ?? '', 'custode', 'vaglio');
    const lines = createAuditLog({ dir }).currentFile();
    const parsed = readFileSync(lines, 'utf8')
      .trim()
      .split('\n')
      .map((line) => auditRecordSchema.parse(JSON.parse(line)));
    expect(parsed.slice(-2).map((r) => (r.event === 'decision' ? r.decision : r.answer))).toEqual([
      'allow',
      'deny',
    ]);
  });

  function blockedAudit() {
    const blocker = join(process.env.HOME ?? '', `not-a-dir-${String(Math.random()).slice(2)}`);
    writeFileSync(blocker, 'a file where the log dir should be');
    const reported: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        reported.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
        done();
      },
    });
    const logger = pino({ level: 'warn' }, sink);
    return { audit: createAuditLog({ dir: join(blocker, 'vaglio'), logger }), reported, logger };
  }

  it('turns an allow or an ask it cannot log into a refusal that says why, and reports it once', async () => {
    const { audit, reported } = blockedAudit();
    const refusing = await createPipeline({ config: parseConfig({}), audit });
    const read = await refusing.evaluate(call('fs_read', { path: '/tmp/a' }, 'read a'));
    const write = await refusing.evaluate(call('fs_write', { path: '/tmp/a', content: 'x' }));
    const guarded = await refusing.evaluate(call('fs_read', { path: '~/.ssh/id_rsa' }));
    expect([read.decision, read.stage]).toEqual(['deny', 'audit']);
    expect(read.reason).toMatch(
      /^not run: its audit line could not be written \(a file stands where its directory should be \((ENOTDIR|EEXIST)\) at .*vaglio\)/,
    );
    expect([write.decision, write.stage]).toEqual(['deny', 'audit']);
    expect([guarded.decision, guarded.stage]).toEqual(['deny', 'guard']);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(/^audit log write failed: a file stands where/);
  });

  it('lets calls run unlogged with audit.on_failure: continue, and says so', async () => {
    const { audit, reported, logger } = blockedAudit();
    const lenient = await createPipeline({
      config: parseConfig({ audit: { on_failure: 'continue' } }),
      audit,
      logger,
    });
    const read = await lenient.evaluate(call('fs_read', { path: '/tmp/a' }, 'read a'));
    expect(read.decision).toBe('allow');
    expect(reported).toContain(
      'running a call without its audit line (audit.on_failure: continue)',
    );
  });

  it('names a full disk as such (ENOSPC, written to /dev/full)', () => {
    if (!existsSync('/dev/full')) return;
    const dir = join(process.env.HOME ?? '', `full-${String(Math.random()).slice(2)}`);
    mkdirSync(dir);
    const audit = createAuditLog({ dir });
    symlinkSync('/dev/full', audit.currentFile());
    const written = audit.append(auditRecordSchema.parse(good));
    expect(written).toEqual({ ok: false, problem: `the disk is full (ENOSPC) at ${dir}` });
  });
});

describe('audit log lines', () => {
  const linesIn = (file: string): Record<string, unknown>[] =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('records the sorted top-level keys of object args, and none for other args', async () => {
    const dir = join(process.env.HOME ?? '', 'audit-keys', 'vaglio');
    const audit = createAuditLog({ dir });
    const pipeline = await createPipeline({ config: parseConfig({}), audit });
    await pipeline.evaluate(call('fs_read', { path: '/tmp/a', offset: 1 }, 'read a'));
    await pipeline.evaluate(call('fs_read', ['/tmp/a'], 'read a'));
    await pipeline.evaluate(call('fs_read', '/tmp/a', 'read a'));
    await pipeline.evaluate(call('fs_read', null, 'read a'));
    pipeline.close();
    audit.close();
    expect(linesIn(audit.currentFile()).map((line) => line.args_keys)).toEqual([
      ['offset', 'path'],
      [],
      [],
      [],
    ]);
  });

  it('a refused write without a logger neither throws nor stops later lines', () => {
    const blocker = join(process.env.HOME ?? '', 'not-a-dir-either');
    writeFileSync(blocker, 'a file where the log dir should be');
    const audit = createAuditLog({ dir: join(blocker, 'vaglio') });
    expect(() => {
      audit.append(good as AuditRecord);
      audit.append(good as AuditRecord);
    }).not.toThrow();
    audit.close();
  });

  it('starts a new file when the month turns, and appends after a close', () => {
    const dir = join(process.env.HOME ?? '', 'audit-months', 'vaglio');
    const audit = createAuditLog({ dir });
    vi.useFakeTimers({ now: new Date('2026-01-31T23:59:00Z'), toFake: ['Date'] });
    try {
      audit.append(good as AuditRecord);
      const january = audit.currentFile();
      vi.setSystemTime(new Date('2026-02-01T00:01:00Z'));
      audit.append(good as AuditRecord);
      audit.close();
      audit.append(good as AuditRecord);
      audit.close();
      const february = audit.currentFile();
      expect(january).not.toBe(february);
      expect([linesIn(january).length, linesIn(february).length]).toEqual([1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
