import type { Mismatch } from '../../../app/schemas/audience';
import { mismatchText } from './results';

/** The strategies disagree: said loudly, every difference listed, nothing averaged away. */
export function MismatchBanner({ mismatches }: { mismatches: readonly Mismatch[] }) {
  return (
    <section className="aud-mismatch-banner" role="alert" aria-label="Counts differ" data-testid="aud-mismatch">
      <h3>The strategies disagree: their counts differ</h3>
      <p>At least one strategy answered differently from the reference. Its timings are not comparable until the data or the layout is fixed.</p>
      <ul>
        {mismatches.map((m, i) => (
          <li key={i}>{mismatchText(m)}</li>
        ))}
      </ul>
    </section>
  );
}
