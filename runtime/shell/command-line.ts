// Words as the one shell line that passes them to a program: each word quoted where the shell
// would read it otherwise, a leading `~/` left bare (the guard then judges it as the home path,
// which is the stricter reading for a program that may expand it itself).

/** The line `words` make, quoted where the shell would need it (`cat 'my notes.txt'`). */
export function commandLine(words: readonly string[]): string {
  return words
    .map((word) => (/^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`))
    .join(' ');
}
