import { AppError } from '../../../app/errors';
import type { StoredProfile } from './types';

/** What a page says it may not do on the embedded server, and what to do instead. */
export interface EmbeddedRefusal {
  /** What is refused, e.g. "its keys cannot be edited". */
  refused: string;
  /** What a profile of one's own lets the user do, e.g. "edit keys". */
  instead: string;
}

/**
 * The embedded server's profile is read-only: docs/deployment.md calls it "the read-only profile
 * **Local (embedded)**", the demo Cacheboard starts for itself (its clients include Cacheboard's
 * own). Its keys, settings and clients are not the user's to change; every other profile's are,
 * whether it came from the UI or the server's config file (ProfileView.readOnly means the
 * *profile* cannot be edited here, not its server). Each page names what it refuses; callers
 * refuse before any Redis call.
 */
export function refuseEmbedded(profile: StoredProfile, { refused, instead }: EmbeddedRefusal): void {
  if (profile.source !== 'embedded') return;
  throw new AppError(
    'READ_ONLY',
    `"${profile.spec.name}" is the read-only embedded server: ${refused}. Add a profile for a server of your own to ${instead}.`,
    'profileId',
  );
}
