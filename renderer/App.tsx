import { ComingSoon } from './components/ComingSoon';
import { ConnectionBanner } from './components/ConnectionBanner';
import { ProfileSelector } from './components/ProfileSelector';
import { Sidebar } from './components/Sidebar';
import { useHashRoute } from './lib/route';
import { AuditPage } from './pages/Audit';
import { AudienceTrialsPage } from './pages/AudienceTrials';
import { BulkLoadPage } from './pages/BulkLoad';
import { ConnectionsPage } from './pages/Connections';
import { MonitorPage } from './pages/Monitor';
import { OverviewPage } from './pages/Overview';
import { DEFAULT_ROUTE, PAGES } from './pages/pages';
import { PipelineTrialsPage } from './pages/PipelineTrials';
import { SamplingPage } from './pages/Sampling';
import { ProfilesProvider } from './profiles/ProfilesContext';

function Page({ route }: { route: string }) {
  switch (route) {
    case 'connections':
      return <ConnectionsPage />;
    case 'overview':
      return <OverviewPage />;
    case 'bulk-load':
      return <BulkLoadPage />;
    case 'sampling':
      return <SamplingPage />;
    case 'audience-trials':
      return <AudienceTrialsPage />;
    case 'pipeline-trials':
      return <PipelineTrialsPage />;
    case 'monitor':
      return <MonitorPage />;
    case 'audit':
      return <AuditPage />;
  }
  const page = PAGES.find((p) => p.route === route);
  if (page?.soon !== undefined) return <ComingSoon page={page} />;
  return (
    <section className="panel empty-state">
      <h2>No such page</h2>
      <p>
        Nothing lives at <span className="mono">#/{route}</span>. Pick a page on the left.
      </p>
    </section>
  );
}

export function App() {
  const hashRoute = useHashRoute();
  const route = hashRoute === '' ? DEFAULT_ROUTE : hashRoute;
  const label = PAGES.find((p) => p.route === route)?.label ?? 'Not found';
  return (
    <ProfilesProvider>
      <div className="shell">
        <Sidebar current={route} />
        <div className="workspace">
          <header className="topbar">
            <h1>{label}</h1>
            <ProfileSelector />
          </header>
          <ConnectionBanner />
          <main className="content">
            <Page route={route} />
          </main>
        </div>
      </div>
    </ProfilesProvider>
  );
}
