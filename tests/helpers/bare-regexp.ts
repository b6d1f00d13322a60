// vitest's toMatchObject treats a RegExp in the expected object as an object with no keys, so
// `toMatchObject({ note: /x/ })` passes for ANY note. A RegExp compared with anything but a
// RegExp is therefore a broken assertion, in every matcher: it fails with the fix.
export class BareRegExpAssertion extends Error {
  constructor(pattern: RegExp) {
    super(
      `A bare RegExp ${String(pattern)} was compared with a value that is not a RegExp ` +
        '(toMatchObject would pass for any value). Fix: use expect.stringMatching(pattern).',
    );
    this.name = new.target.name;
  }
}

/** An equality tester that refuses RegExp-vs-non-RegExp comparisons; undefined lets others decide. */
export function refuseBareRegExp(a: unknown, b: unknown): boolean | undefined {
  const aIs = a instanceof RegExp;
  const bIs = b instanceof RegExp;
  if (aIs === bIs) return undefined;
  throw new BareRegExpAssertion((aIs ? a : b) as RegExp);
}
