import { readOnlyDataText } from '../../../app/readOnlyData';
import type { AppError } from '../../../app/errors';
import type { ProfileView } from '../../../app/schemas/connections';
import type { Catalog } from '../../../app/schemas/console';

interface Props {
  /** Signed in as an analyst: the server runs only @read commands for them, never @dangerous ones. */
  analyst: boolean;
  profile: ProfileView;
  catalog: Catalog | undefined;
  catalogError: AppError | undefined;
}

/** What the console cannot do here, said once above the transcript: the role's limit, a read-only server, thin docs. */
export function ConsoleNotes({ analyst, profile, catalog, catalogError }: Props) {
  // The catalog's own note says why it is thin (which call the server or its ACL refused) and what that costs.
  const thin = catalog !== undefined && (catalog.note !== undefined || catalog.source === 'names' || catalog.source === 'none');
  return (
    <>
      {analyst && (
        <p className="cn-note" role="note" data-testid="console-analyst-note">
          Signed in as analyst: only commands in the server’s <code className="mono">@read</code> category run, and none in{' '}
          <code className="mono">@dangerous</code> (KEYS, SORT_RO); the server refuses the rest. INFO, CONFIG GET, CLIENT LIST and SLOWLOG GET run too, masked
          as the Overview, Config and Clients pages show them. Runs other than quick reads are on the audit log.
        </p>
      )}
      {profile.readOnlyData && (
        <p className="cn-note" role="note" data-testid="console-read-only-note">
          {readOnlyDataText(profile, { refused: 'commands that write are refused', instead: 'change data' })}
        </p>
      )}
      {thin && (
        <p className="cn-note" role="note" data-testid="console-catalog-note">
          {catalog.note ??
            (catalog.source === 'none'
              ? 'No autocomplete or docs: the server refused to list its commands.'
              : 'Autocomplete of command names only, without docs.')}
        </p>
      )}
      {catalogError !== undefined && (
        <p className="cn-note" role="note" data-testid="console-catalog-note">
          No autocomplete or docs: {catalogError.message}
        </p>
      )}
    </>
  );
}
