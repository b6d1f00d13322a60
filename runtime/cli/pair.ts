// `custode pair`: who may talk to the bot besides channels.*.allowed_users. A stranger who
// writes to the bot gets a one-time code; the owner approves it here. Changes reach a running
// daemon at the sender's next message (it reads the pairing file each time).
import {
  createPairingStore,
  pairingFile,
  PAIRING_CHANNELS,
  type PairingStore,
} from '../../channels/pairing/pairing-store.ts';
import { stateDir } from '../paths.ts';
import { helpText, parseCommand, UsageError, type CliIo, type CommandSpec } from './io.ts';

export const spec = {
  usage: 'custode pair list | custode pair approve <code> | custode pair revoke <id>',
  details: [
    'list            paired people and pending codes, per channel',
    'approve <code>  let in the person the bot gave this code (valid for an hour)',
    'revoke <id>     forget a paired person (their Telegram or Slack id, as `list` shows it)',
  ],
  options: {},
  maxPositionals: 2,
} satisfies CommandSpec;

function stores(env: NodeJS.ProcessEnv): (readonly [string, PairingStore])[] {
  return PAIRING_CHANNELS.map(
    (channel) => [channel, createPairingStore(pairingFile(stateDir(env), channel))] as const,
  );
}

async function list(io: CliIo): Promise<number> {
  for (const [channel, store] of stores(io.env)) {
    const { users, requests } = await store.read();
    const lines = [
      ...users.map(
        (user) =>
          `  paired   ${user.id}${user.label ? ` (${user.label})` : ''} since ${user.paired_at}`,
      ),
      ...requests.map(
        (request) =>
          `  waiting  ${request.id}${request.label ? ` (${request.label})` : ''}: code ${request.code}, until ${request.expires_at}`,
      ),
    ];
    io.stdout.write(`${channel}:\n${lines.length > 0 ? lines.join('\n') : '  nobody'}\n`);
  }
  return 0;
}

async function approve(code: string, io: CliIo): Promise<number> {
  for (const [channel, store] of stores(io.env)) {
    const user = await store.approve(code);
    if (user === null) continue;
    io.stdout.write(
      `Paired ${channel} user ${user.id}${user.label ? ` (${user.label})` : ''}: they can write to the bot now.\n`,
    );
    return 0;
  }
  io.stderr.write(
    `custode pair: no waiting request has the code ${code}. Codes last an hour: ask them to write to the bot again for a new one (\`custode pair list\` shows the waiting ones).\n`,
  );
  return 1;
}

async function revoke(id: string, io: CliIo): Promise<number> {
  let found = false;
  for (const [channel, store] of stores(io.env)) {
    if (!(await store.revoke(id))) continue;
    found = true;
    io.stdout.write(`Revoked ${channel} user ${id}: their next message gets a new code.\n`);
  }
  if (found) return 0;
  io.stderr.write(
    `custode pair: nobody paired has the id ${id} (\`custode pair list\` shows them).\n`,
  );
  return 1;
}

/** Run `custode pair list|approve <code>|revoke <id>`. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const [action, value] = parseCommand(argv, spec).positionals;
  if (action === 'list' && value === undefined) return list(io);
  if (action === 'approve' && value !== undefined) return approve(value, io);
  if (action === 'revoke' && value !== undefined) return revoke(value, io);
  throw new UsageError(
    action === undefined
      ? 'Say what to do: list, approve or revoke'
      : `Cannot do '${argv.join(' ')}'`,
    helpText(spec),
  );
}
