// Documents and photos sent to the bot: fetched from Telegram (getFile, then the file URL) with
// a size cap, and saved to the inbox folder inside roots.write; the model gets the path.
import type { Api } from 'grammy';
import type { Message } from 'grammy/types';
import { saveToInbox } from '../../runtime/inbox.ts';

const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface Attachment {
  readonly fileId: string;
  readonly name: string;
  readonly size?: number;
  readonly mime?: string;
}

export type SaveResult =
  | { readonly kind: 'saved'; readonly path: string; readonly bytes: number }
  | { readonly kind: 'too_big'; readonly bytes: number }
  | { readonly kind: 'failed'; readonly reason: string };

export interface InboxSettings {
  readonly dir: string;
  readonly maxBytes: number;
  readonly token: string;
  /** The Bot API root (default https://api.telegram.org). */
  readonly apiRoot?: string;
}

/** The document, or the largest size of the photo, a message carries. */
export function attachmentOf(message: Message): Attachment | null {
  const document = message.document;
  if (document !== undefined)
    return {
      fileId: document.file_id,
      name: document.file_name ?? 'document',
      ...(document.file_size === undefined ? {} : { size: document.file_size }),
      ...(document.mime_type === undefined ? {} : { mime: document.mime_type }),
    };
  const photo = message.photo?.at(-1);
  if (photo !== undefined)
    return {
      fileId: photo.file_id,
      name: `photo-${photo.file_unique_id}.jpg`,
      ...(photo.file_size === undefined ? {} : { size: photo.file_size }),
      mime: 'image/jpeg',
    };
  return null;
}

/** The body, or null as soon as it passes `max` bytes (the rest is not read). */
async function readCapped(response: Response, max: number): Promise<Uint8Array | null> {
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Fetch one attachment and save it in the inbox (never throws for an expected failure). */
export async function saveAttachment(
  api: Api,
  attachment: Attachment,
  settings: InboxSettings,
): Promise<SaveResult> {
  if (attachment.size !== undefined && attachment.size > settings.maxBytes)
    return { kind: 'too_big', bytes: attachment.size };
  try {
    const file = await api.getFile(attachment.fileId);
    if (file.file_path === undefined)
      return { kind: 'failed', reason: 'Telegram gave no download path' };
    const root = settings.apiRoot ?? 'https://api.telegram.org';
    const response = await fetch(`${root}/file/bot${settings.token}/${file.file_path}`, {
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
    if (!response.ok)
      return { kind: 'failed', reason: `the download answered ${String(response.status)}` };
    const bytes = await readCapped(response, settings.maxBytes);
    if (bytes === null) return { kind: 'too_big', bytes: settings.maxBytes + 1 };
    const path = await saveToInbox(settings.dir, attachment.name, bytes);
    return { kind: 'saved', path, bytes: bytes.byteLength };
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
}
