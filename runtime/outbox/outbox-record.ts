// One delivery a channel owes a chat, kept on disk until it is delivered or given up: a
// text (one part that fits the channel), a card, an edit of a posted card, or the notice
// that tells a chat what was given up. Saved as JSON, `v: 1`.
import * as z from 'zod';
import { cardSchema } from '../approvals/store.ts';

const refSchema = z.record(z.string(), z.union([z.string(), z.number()]));

const whatSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('card'), card: cardSchema, approvalId: z.string().nullable() }),
  z.object({ kind: z.literal('edit'), ref: refSchema, text: z.string() }),
  /** What the chat is told about deliveries given up; never itself turned into a notice. */
  z.object({ kind: z.literal('notice'), text: z.string() }),
]);

export const outboxRecordSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /** Order within the channel: older first. */
  seq: z.number().int().nonnegative(),
  chatId: z.string(),
  createdAt: z.iso.datetime(),
  /** After this, the delivery is given up and the chat told. */
  expiresAt: z.iso.datetime(),
  attempts: z.number().int().nonnegative(),
  /** Why the last attempt failed, for the operator (never shown to the chat). */
  lastError: z.string().optional(),
  what: whatSchema,
});

export type OutboxRecord = z.infer<typeof outboxRecordSchema>;
export type Delivery = OutboxRecord['what'];
