import { AppError } from '../../../app/errors';
import type { StreamSink } from '../handlers';

/**
 * A download streamed into its subscription: the sink ends when `download` settles, with its
 * AppError as is or any other failure as INTERNAL. The download stops on its own when the
 * subscription ends (it watches sink.signal), so the cleanup does nothing. Any producer that
 * watches the signal the same way (a value's find) ends its stream through here, named by `what`.
 */
export function streamDownload(sink: Pick<StreamSink<unknown>, 'end'>, download: Promise<void>, what = 'The download'): () => void {
  download.then(
    () => sink.end(),
    (e: unknown) => sink.end(e instanceof AppError ? e : new AppError('INTERNAL', `${what} failed: ${e instanceof Error ? e.message : String(e)}`)),
  );
  return () => undefined;
}
