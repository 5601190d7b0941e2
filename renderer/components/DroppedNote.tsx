/** Progress updates the server dropped for this page because it was slow to take them; nothing while there are none. */
export function DroppedNote({ dropped }: { dropped: number }) {
  if (dropped === 0) return null;
  return <p className="hint">{`${dropped} progress update${dropped === 1 ? ' was' : 's were'} dropped while the page was busy.`}</p>;
}
