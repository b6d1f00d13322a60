// A response body as text the model can read: HTML rendered to plain text, other text
// decoded with its declared charset, binary content described instead of dumped.
const textTypes =
  /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

/** Decode with the content type's charset; an unknown or missing one falls back to UTF-8. */
function decode(body: Buffer, contentType: string): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Readable text for a body of the given content type. */
export async function bodyToText(body: Buffer, contentType: string): Promise<string> {
  if (/^(text\/html|application\/xhtml\+xml)/i.test(contentType)) {
    // Loaded on the first HTML page, not with the executor: a hook or `check` never needs it.
    const { convert } = await import('html-to-text');
    return convert(decode(body, contentType), {
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
      ],
    });
  }
  if (contentType === '' || textTypes.test(contentType)) return decode(body, contentType);
  return `[binary content: ${String(body.length)} bytes of ${contentType}]`;
}
