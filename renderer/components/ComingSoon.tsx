import type { PageEntry } from '../pages/pages';

/** The one placeholder for every job that is not built yet. */
export function ComingSoon({ page }: { page: PageEntry }) {
  return (
    <section className="panel coming-soon" aria-labelledby="coming-soon-title">
      <h2 id="coming-soon-title">{page.label} is coming soon</h2>
      <p>{page.soon}</p>
    </section>
  );
}
