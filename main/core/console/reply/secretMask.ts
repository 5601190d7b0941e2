import type { AggregateType, StringType } from '../../../../app/replyText';
import { MASKED, namedSecret, secretChoices } from '../../text/configSecrets';
import type { LineType, RespSink } from './respSink';

/** A name longer than this is no parameter's: it is not read as one. */
const NAME_BYTES = 256;
/** A choice (tls-auth-clients' "optional") is short: a longer value is masked unread. */
const CHOICE_BYTES = 64;
const MASK = Buffer.from(MASKED);
/** How parameter names are written (a module's take a dot: `search.api-secret`): a hash field such as `auth_token` or `Password` is data, not a parameter. */
const PARAMETER = /^[a-z0-9][a-z0-9.-]*$/;
const secretName = (name: string): boolean => PARAMETER.test(name) && namedSecret(name);

interface Frame {
  /** Its values come as name, value pairs: a map (an attribute), or an array of an even count. */
  pairs: boolean;
  /** Values (a map's keys and values both) that have begun so far. */
  index: number;
  /** The value that begins next is a secret parameter's; `choices` are the values it may show. */
  secret: { choices: RegExp | undefined } | undefined;
}

/** A string being read that may be a name, or a secret's value held until it is known to be a choice. */
interface Held {
  t: StringType;
  bytes: number;
  format: string;
  pieces: Buffer[];
  kept: number;
  /** Past its bound: not a name / not a choice. */
  over: boolean;
}

/**
 * Between the parser and the reply's consumers (the page's tree, the Raw/Copy text, the download
 * file): the value paired with a secret parameter's name is `(secret)`, in whatever reply holds
 * the pair. CONFIG GET answers name, value pairs (RESP2) or a map (RESP3), and the same reply
 * comes back inside EXEC's array (MULTI … EXEC), so masking by the command's name let it through:
 * here a pair is masked by what the reply holds, at any depth. A pair is a map's entry, or two
 * items of an array of an even count, the name first. The names are the Config page's
 * (configSecrets.ts: requirepass, masterauth and Valkey's primaryauth…), written as parameters
 * are (lower case, digits, dashes, dots); a hash field written so (HGETALL of a "password" field)
 * is masked too: safe, and the Keys page shows its value.
 */
export class SecretMask implements RespSink {
  private readonly stack: Frame[] = [];
  /** The name string being read at a name's place. */
  private name: Held | undefined;
  /** The value string being read at a secret's place: swallowed (masked at its start) or held (a choice, maybe). */
  private value: { held: Held | undefined; choices: RegExp } | 'swallow' | undefined;

  constructor(private readonly next: RespSink) {}

  line(t: LineType, buf: Buffer, start: number, end: number): void {
    const frame = this.top();
    const namePlace = frame?.pairs === true && frame.index % 2 === 0;
    const secret = this.begin();
    if (secret === undefined || t === 'null' || secret.choices?.test(buf.toString('utf8', start, end)) === true) {
      this.next.line(t, buf, start, end);
      const name = namePlace && t === 'simple' && end - start <= NAME_BYTES ? buf.toString('utf8', start, end) : undefined;
      if (frame !== undefined && name !== undefined && secretName(name)) frame.secret = { choices: secretChoices(name) };
      return;
    }
    this.masked();
  }

  stringStart(t: StringType, bytes: number, format: string): void {
    const frame = this.top();
    const namePlace = frame?.pairs === true && frame.index % 2 === 0;
    const secret = this.begin();
    if (secret === undefined) {
      if (namePlace) this.name = { t, bytes, format, pieces: [], kept: 0, over: bytes > NAME_BYTES };
      this.next.stringStart(t, bytes, format);
    } else if (secret.choices === undefined || bytes > CHOICE_BYTES) {
      // Masked at its start: a download begun mid-reply replays this start the same way.
      this.value = 'swallow';
      this.next.stringStart('bulk', MASK.length, '');
      this.next.stringPiece(MASK, 0, MASK.length);
    } else {
      this.value = { held: { t, bytes, format, pieces: [], kept: 0, over: false }, choices: secret.choices };
    }
  }

  stringPiece(buf: Buffer, start: number, end: number): void {
    const value = this.value;
    if (value === 'swallow') return;
    if (value !== undefined) {
      if (value.held !== undefined) keep(value.held, buf, start, end, CHOICE_BYTES);
      return;
    }
    if (this.name !== undefined) keep(this.name, buf, start, end, NAME_BYTES);
    this.next.stringPiece(buf, start, end);
  }

  stringEnd(): void {
    const value = this.value;
    this.value = undefined;
    if (value === 'swallow') {
      this.next.stringEnd();
      return;
    }
    if (value !== undefined) {
      const held = value.held as Held;
      const text = Buffer.concat(held.pieces).toString('utf8');
      if (!held.over && value.choices.test(text)) {
        this.next.stringStart(held.t, held.bytes, held.format);
        for (const p of held.pieces) this.next.stringPiece(p, 0, p.length);
        this.next.stringEnd();
      } else this.masked();
      return;
    }
    const name = this.name;
    this.name = undefined;
    this.next.stringEnd();
    if (name === undefined || name.over) return;
    const text = Buffer.concat(name.pieces).toString('utf8');
    const frame = this.top();
    if (frame !== undefined && secretName(text)) frame.secret = { choices: secretChoices(text) };
  }

  open(t: AggregateType, count: number): void {
    // An attribute annotates the value after it: it is not one of its parent's values.
    if (t !== 'attribute') this.begin();
    this.stack.push({ pairs: t === 'map' || t === 'attribute' || (count % 2 === 0 && count > 0), index: 0, secret: undefined });
    this.next.open(t, count);
  }

  close(): void {
    this.stack.pop();
    this.next.close();
  }

  private top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  /** A value begins: counted in its parent; whether it is a secret's value (and then what it may show). */
  private begin(): { choices: RegExp | undefined } | undefined {
    const frame = this.top();
    if (frame === undefined) return undefined;
    const secret = frame.index % 2 === 1 ? frame.secret : undefined;
    frame.secret = undefined;
    frame.index++;
    return secret;
  }

  private masked(): void {
    this.next.stringStart('bulk', MASK.length, '');
    this.next.stringPiece(MASK, 0, MASK.length);
    this.next.stringEnd();
  }
}

/** Copies what may be needed of a string (its bytes outlive the chunk); past `bound` it is only marked over. */
function keep(h: Held, buf: Buffer, start: number, end: number, bound: number): void {
  if (h.over) return;
  if (h.kept + end - start > bound) {
    h.over = true;
    h.pieces = [];
    return;
  }
  h.pieces.push(Buffer.from(buf.subarray(start, end)));
  h.kept += end - start;
}
