/**
 * Download files of replies that passed the display bound: under one directory, each
 * owned by the user whose run made it, bounded in count, total bytes and age (oldest go first).
 */
export interface ReplyFileWriter {
  readonly id: string;
  write(text: string | Buffer): void;
  /** Flush and close; resolves to the file's size. */
  finish(): Promise<number>;
  /** Remove a file that will not be finished. */
  discard(): void;
}

export interface ReplyFile {
  total: number;
  /** Up to `length` bytes from `offset`. */
  read(offset: number, length: number): Promise<Buffer>;
  close(): void;
}

export class ReplyFiles {
  constructor(readonly dir: string) {}

  create(owner: string): ReplyFileWriter {
    void owner;
    throw new Error('ReplyFiles.create: not built yet');
  }

  /** NOT_FOUND for an unknown id, an expired file or another owner's. */
  open(id: string, owner: string): Promise<ReplyFile> {
    void id;
    void owner;
    throw new Error('ReplyFiles.open: not built yet');
  }
}
