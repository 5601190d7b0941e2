import { WithProfile } from '../../components/WithProfile';
import { ProfileConfig } from './ProfileConfig';
import './config.css';

/**
 * Every node's CONFIG GET *, side by side and grouped, with the differences between nodes
 * that matter highlighted and explained; for ops, CONFIG SET on one node or every node and
 * CONFIG REWRITE. Secrets arrive masked: the server never sends their values.
 */
export function ConfigPage() {
  return (
    <WithProfile purpose="read and compare its configuration" testId="config-no-profile">
      {(profile) => <ProfileConfig profile={profile} />}
    </WithProfile>
  );
}
