import { permissionOf } from '../auth/permissions';
import { useSession } from '../auth/SessionContext';
import { ConnectionBanner } from '../components/ConnectionBanner';
import { useLinkLost } from '../components/LiveState';
import { ProfileSelector } from '../components/ProfileSelector';
import { RoleNotice } from '../components/RoleNotice';
import { Sidebar } from './Sidebar';
import { SkipLink } from '../components/SkipLink';
import { useHashRoute } from '../lib/route';
import { DEFAULT_ROUTE, PAGES, type PageEntry } from './pages';
import { ProfilesProvider } from '../profiles/ProfilesContext';

function NoSuchPage({ route }: { route: string }) {
  return (
    <section className="panel empty-state">
      <h2>No such page</h2>
      <p>
        Nothing lives at <span className="mono">#/{route}</span>. Pick a page on the left.
      </p>
    </section>
  );
}

function Page({ page, route }: { page: PageEntry | undefined; route: string }) {
  const { session } = useSession();
  if (page === undefined) return <NoSuchPage route={route} />;
  // A page the contract keeps from this role: say so, rather than draw controls the server refuses.
  if (page.needs !== undefined && !permissionOf(session, page.needs).allowed) {
    return <RoleNotice needs={page.needs} what={page.purpose ?? ''} />;
  }
  const Component = page.component;
  return <Component />;
}

const CONTENT_ID = 'content';
const TITLE_ID = 'page-title';

export function App() {
  const hashRoute = useHashRoute();
  const route = hashRoute === '' ? DEFAULT_ROUTE : hashRoute;
  const page = PAGES.find((p) => p.route === route);
  // With the link lost, no page is live: its live markers (green badges) are greyed (styles.css).
  const lost = useLinkLost() !== undefined;
  return (
    <ProfilesProvider>
      <SkipLink target={CONTENT_ID} />
      <div className="shell">
        <Sidebar current={route} />
        <div className="workspace">
          <header className="topbar">
            <h1 id={TITLE_ID}>{page?.label ?? 'Not found'}</h1>
            <ProfileSelector />
          </header>
          <ConnectionBanner />
          <main className={`content${lost ? ' is-stale' : ''}`} data-stale={lost ? 'true' : undefined} id={CONTENT_ID} tabIndex={-1} aria-labelledby={TITLE_ID}>
            <Page page={page} route={route} />
          </main>
        </div>
      </div>
    </ProfilesProvider>
  );
}
