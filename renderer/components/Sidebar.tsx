import { SessionBadge } from '../auth/SessionBadge';
import { hrefOf } from '../lib/route';
import { PAGES } from '../pages/pages';

export function Sidebar({ current }: { current: string }) {
  return (
    <aside className="sidebar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Cacheboard
      </div>
      <nav aria-label="Main">
        <ul>
          {PAGES.map((p) => (
            <li key={p.route}>
              <a href={hrefOf(p.route)} aria-current={p.route === current ? 'page' : undefined}>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <SessionBadge />
    </aside>
  );
}
