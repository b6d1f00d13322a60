// Turns a crash or a hard stop cut short: the turn log has their start but no end after
// their last step (a clean stop cancels a running turn and logs its end; a card's wait is an
// end too, until a press resumes the turn). The next daemon tells their chats what had finished.
import { stepSubject } from '../planner/channel-output.ts';
import { readRecords, turnLogDir, type TurnRecord } from './turn-log.ts';

export interface UnfinishedTurn {
  readonly turnId: string;
  readonly channel: string;
  readonly chatId: string;
  /** What the person asked. */
  readonly intent: string;
  /** When the turn's last line was written (about when it was cut). */
  readonly lastSeen: string;
  /** The calls that had run, in order ("fs_write ~/x.txt"). */
  readonly ran: readonly string[];
  /** The call the person had allowed that had not finished when the turn was cut, if any. */
  readonly approvedUnfinished?: string;
}

/** The allowed call of the turn's last resumption, when no step finished after it. */
function approvedUnfinished(lines: readonly TurnRecord[]): string | undefined {
  const at = lines.findLastIndex((line) => line.type === 'turn_resumed');
  const resumed = lines[at];
  if (
    resumed?.type !== 'turn_resumed' ||
    (resumed.answer !== 'once' && resumed.answer !== 'always')
  )
    return undefined;
  return lines.slice(at + 1).some((line) => line.type === 'step')
    ? undefined
    : stepSubject(resumed);
}

/** Turns left unfinished whose last line is newer than `since`. */
export async function unfinishedTurns(
  env: NodeJS.ProcessEnv,
  since: Date,
): Promise<UnfinishedTurn[]> {
  const { records } = await readRecords(turnLogDir(env));
  const turns = new Map<string, TurnRecord[]>();
  for (const record of records)
    turns.set(record.turn_id, [...(turns.get(record.turn_id) ?? []), record]);
  const unfinished: UnfinishedTurn[] = [];
  for (const lines of turns.values()) {
    const first = lines[0];
    const last = lines.at(-1);
    if (first?.type !== 'turn_started' || last === undefined || last.type === 'turn_ended')
      continue;
    if (Date.parse(last.ts) < since.getTime()) continue;
    const approved = approvedUnfinished(lines);
    unfinished.push({
      turnId: first.turn_id,
      channel: first.channel,
      chatId: first.chat_id,
      intent: first.intent,
      lastSeen: last.ts,
      ran: lines.flatMap((line) =>
        line.type === 'step' && line.decision === 'allow' ? [stepSubject(line)] : [],
      ),
      ...(approved === undefined ? {} : { approvedUnfinished: approved }),
    });
  }
  return unfinished;
}
