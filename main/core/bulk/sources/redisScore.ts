const PLUS = 43;
const MINUS = 45;
const DOT = 46;

/**
 * Whether ZADD would take buf[start, end) as a score: a decimal number with
 * optional sign, fraction and exponent, or inf/infinity with optional sign
 * (any case). Redis parses scores with strtold and refuses NaN, leading
 * spaces and trailing text; hex floats, which strtold also reads, are refused
 * here, since in a data file they are far more likely a mistake.
 */
export function isScore(buf: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (i < end && (buf[i] === PLUS || buf[i] === MINUS)) i++;
  if (i === end) return false;
  if (((buf[i] as number) | 0x20) === 0x69) return isInfinity(buf, i, end); // 'i'
  let digits = 0;
  while (i < end && isDigit(buf[i])) {
    i++;
    digits++;
  }
  if (i < end && buf[i] === DOT) {
    i++;
    while (i < end && isDigit(buf[i])) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < end && ((buf[i] as number) | 0x20) === 0x65) {
    // 'e' exponent
    i++;
    if (i < end && (buf[i] === PLUS || buf[i] === MINUS)) i++;
    let exp = 0;
    while (i < end && isDigit(buf[i])) {
      i++;
      exp++;
    }
    if (exp === 0) return false;
  }
  return i === end;
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 48 && b <= 57;
}

function isInfinity(buf: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len !== 3 && len !== 8) return false;
  const word = 'infinity';
  for (let k = 0; k < len; k++) if (((buf[start + k] as number) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}
