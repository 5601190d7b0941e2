/** What a job warned about (a key type it skipped, a setting that skews the figures), as a panel; nothing without warnings. */
export function Warnings({ warnings, testId }: { warnings: readonly string[]; testId: string }) {
  if (warnings.length === 0) return null;
  return (
    <section className="panel job-warnings" aria-label="Warnings" data-testid={testId}>
      <h3>Warnings</h3>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>{w}</li>
        ))}
      </ul>
    </section>
  );
}
