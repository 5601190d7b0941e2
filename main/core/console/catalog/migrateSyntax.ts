/**
 * Where MIGRATE's arguments go: `MIGRATE host port key|"" db timeout [COPY] [REPLACE]
 * [AUTH password] [AUTH2 username password] [KEYS key…]`. Options start at 6; after KEYS come
 * key names only, so a key named "AUTH" there is a key. Indexes into the words, 0 = MIGRATE.
 * Its keys are found here, not with COMMAND GETKEYS: that would send the password to the server,
 * and MONITOR shows GETKEYS' arguments as they are (it redacts only MIGRATE's own).
 */
export function migrateParts(words: readonly string[]): { secrets: number[]; keys: number[] } {
  const secrets: number[] = [];
  const keys: number[] = [];
  const word = (i: number): string => (words[i] ?? '').toUpperCase();
  if (words.length > 3 && words[3] !== '') keys.push(3);
  for (let i = 6; i < words.length;) {
    const option = word(i);
    if (option === 'KEYS') {
      // KEYS needs the key argument empty; Redis refuses the command otherwise.
      for (let k = i + 1; k < words.length; k++) keys.push(k);
      break;
    }
    if (option === 'AUTH') {
      secrets.push(i + 1);
      i += 2;
    } else if (option === 'AUTH2') {
      secrets.push(i + 1, i + 2);
      i += 3;
    } else i++;
  }
  return { secrets: secrets.filter((s) => s < words.length), keys };
}
