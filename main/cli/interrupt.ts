/**
 * Ctrl-C as the long commands take it: the first asks the job to stop and report what it
 * finished (the note says so on stderr), a second one leaves at once with 130.
 */
export function interruptible(note: string | null): { signal: AbortSignal; dispose(): void } {
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130);
    if (note !== null) process.stderr.write(`\n${note} (Ctrl-C again to quit now)\n`);
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: abort.signal, dispose: () => process.off('SIGINT', onSigint) };
}
