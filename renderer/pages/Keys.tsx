import type { ProfileView } from '../../app/schemas/connections';
import { WithProfile } from '../components/WithProfile';
import { ValuePanel } from './keys/value/ValuePanel';
import '../components/jobPage.css';

/**
 * Keys: the namespace tree of the whole DB, finding keys by name or pattern, and one key's
 * value of any type, page by page; ops edit.
 */
export function KeysPage() {
  return (
    <WithProfile purpose="browse its keys" testId="keys-no-profile">
      {(profile) => <ProfileKeys profile={profile} />}
    </WithProfile>
  );
}

function ProfileKeys({ profile }: { profile: ProfileView }) {
  return (
    <div className="page keys-page">
      <p className="page-intro">The namespace tree and key browser are being built.</p>
      <ValuePanel profile={profile} db={profile.db} keyB64="" canEdit={false} onKeyChanged={() => undefined} />
    </div>
  );
}
