// A response body as text the model can read: HTML rendered to plain text, other text
// decoded, binary content described instead of dumped.
import { convert } from 'html-to-text';

const textTypes =
  /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded)|[^;]*\+(json|xml))/i;

/** Readable text for a body of the given content type. */
export function bodyToText(body: Buffer, contentType: string): string {
  if (/^(text\/html|application\/xhtml\+xml)/i.test(contentType)) {
    return convert(body.toString('utf8'), {
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
      ],
    });
  }
  if (contentType === '' || textTypes.test(contentType)) return body.toString('utf8');
  return `[binary content: ${String(body.length)} bytes of ${contentType}]`;
}
