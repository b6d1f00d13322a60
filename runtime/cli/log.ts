// `custode log`: a summary of the audit log for a month; `custode log turns`: recent turns.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { auditRecordSchema, type AuditRecord } from '../log/audit-log.ts';
import { formatRecentTurns } from '../log/turn-log.ts';
import { dataDir, monthKey } from '../paths.ts';
import {
  CONFIG_DETAIL,
  configOption,
  helpText,
  parseCommand,
  UsageError,
  type CliIo,
  type CommandSpec,
} from './io.ts';

function countBy<T>(items: readonly T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}

/** The readable summary of one month's audit records. */
export function summariseAudit(records: readonly AuditRecord[], invalidLines: number): string {
  const decisions = records.filter((r) => r.event === 'decision');
  const approvals = records.filter((r) => r.event === 'approval');
  const denied = decisions.filter((r) => r.decision === 'deny');
  const uncarded = decisions.flatMap((r) => (r.tier === undefined ? [] : [{ tier: r.tier }]));
  const lines = [
    `decisions: ${decisions.length} (${countBy(decisions, (r) => r.decision) || 'none'})`,
    `denied by stage: ${countBy(denied, (r) => r.stage ?? 'none') || 'none'}`,
    `by executor: ${countBy(decisions, (r) => r.executor) || 'none'}`,
    // The assistant's own calls apart from what `custode check` and other agents' hooks asked.
    `by origin: ${countBy(decisions, (r) => r.origin ?? 'assistant') || 'none'}`,
    `allowed without a card, by tier: ${countBy(uncarded, (r) => r.tier) || 'none'}`,
    `card answers: ${approvals.length} (${countBy(approvals, (r) => r.answer) || 'none'})`,
  ];
  if (invalidLines > 0) lines.push(`lines that fail the audit schema: ${invalidLines}`);
  const recent = denied
    .slice(-5)
    .map(
      (r) =>
        `  ${r.ts} ${r.origin ?? 'assistant'} ${r.executor} ${r.stage ?? ''}: ${r.verdict.reason}`,
    );
  if (recent.length > 0) lines.push('recent denials:', ...recent);
  return `${lines.join('\n')}\n`;
}

export const spec = {
  usage: 'custode log [--month YYYY-MM] | custode log turns [--limit N] [--config path]',
  details: [
    '--month YYYY-MM the audit log of that month (default: this month)',
    'turns           recent turns from the turn log instead',
    '--limit N       how many turns (default 10)',
    CONFIG_DETAIL,
  ],
  options: { ...configOption, month: { type: 'string' }, limit: { type: 'string' } },
  maxPositionals: 1,
} satisfies CommandSpec;

/** Run `custode log [--month YYYY-MM]` or `custode log turns [--limit N]`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(argv, spec);
  const [what] = positionals;
  if (what !== undefined && what !== 'turns') {
    throw new UsageError(`Unknown argument '${what}' (only 'turns')`, helpText(spec));
  }
  if (what === 'turns') {
    const { config } = await loadConfig(values.config, io.env);
    const limit = Number(values.limit ?? '10');
    io.stdout.write(
      await formatRecentTurns(Number.isInteger(limit) && limit > 0 ? limit : 10, config, io.env),
    );
    return 0;
  }
  const month = values.month ?? monthKey();
  const file = join(dataDir(io.env), 'vaglio', `${month}.jsonl`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    io.stdout.write(`no audit log for ${month} (${file})\n`);
    return 0;
  }
  const records: AuditRecord[] = [];
  let invalid = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = auditRecordSchema.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data);
      else invalid += 1;
    } catch {
      invalid += 1;
    }
  }
  io.stdout.write(`audit log ${file}\n${summariseAudit(records, invalid)}`);
  return 0;
}
