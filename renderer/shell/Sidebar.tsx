import { SessionBadge } from '../auth/SessionBadge';
import { isRestricted, permissionOf, roleNeeded } from '../auth/permissions';
import { useSession } from '../auth/SessionContext';
import { hrefOf } from '../lib/route';
import { PAGES, type PageEntry } from './pages';
import { ThemeSwitch } from '../components/ThemeSwitch';

/** The role tag beside a page some users may not open, and whether this user may. */
function useGate(page: PageEntry) {
  const { session } = useSession();
  if (page.needs === undefined || !isRestricted(page.needs)) return undefined;
  return { role: roleNeeded(page.needs), ...permissionOf(session, page.needs) };
}

function NavItem({ page, current }: { page: PageEntry; current: boolean }) {
  const gate = useGate(page);
  return (
    <li>
      <a
        href={hrefOf(page.route)}
        aria-current={current ? 'page' : undefined}
        className={gate?.allowed === false ? 'is-locked' : undefined}
        title={gate === undefined ? undefined : (gate.reason ?? `Only ${gate.role} users can open this page.`)}
        data-needs={gate?.role}
      >
        <span className="nav-label">{page.label}</span>
        {gate !== undefined && (
          <span className="nav-role" data-testid={`nav-role-${page.route}`}>
            {gate.role}
          </span>
        )}
      </a>
    </li>
  );
}

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
            <NavItem key={p.route} page={p} current={p.route === current} />
          ))}
        </ul>
      </nav>
      <div className="sidebar-foot">
        <ThemeSwitch />
        <SessionBadge />
      </div>
    </aside>
  );
}
