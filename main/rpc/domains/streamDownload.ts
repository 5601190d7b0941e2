import { AppError } from '../../../app/errors';
import type { StreamSink } from '../handlers';

/**
 * A download streamed into its subscription: the sink ends when `download` settles, with its
 * AppError as is or any other failure as INTERNAL. The download stops on its own when the
 * subscription ends (it watches sink.signal), so the cleanup does nothing.
 */
export function streamDownload(sink: Pick<StreamSink<unknown>, 'end'>, download: Promise<void>): () => void {
  download.then(
    () => sink.end(),
    (e: unknown) => sink.end(e instanceof AppError ? e : new AppError('INTERNAL', `The download failed: ${e instanceof Error ? e.message : String(e)}`)),
  );
  return () => undefined;
}
