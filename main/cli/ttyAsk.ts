import { AppError } from '../../app/errors';

/** Read one line from the terminal without echoing it. */
export function ask(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Echo off before the prompt shows: what is typed after it is never on the screen.
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          done();
          process.stderr.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          done();
          reject(new AppError('CANCELLED', 'cancelled'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    stdin.on('data', onData);
  });
}
