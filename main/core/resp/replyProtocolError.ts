/**
 * The server sent bytes that are not a RESP2 reply: the reply stream can no
 * longer be matched to the commands sent. Thrown by both RESP readers
 * (ReplyParser, which counts replies, and ReplyReader, which keeps them).
 */
export class ReplyProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyProtocolError';
  }
}
