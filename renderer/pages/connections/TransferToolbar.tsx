import { useState } from 'react';
import './transfer.css';
import type { ProfileView } from '../../../app/schemas/connections';
import { usePermission } from '../../auth/usePermission';
import { ExportDialog } from './ExportDialog';
import { ImportDialog } from './ImportDialog';

interface Props {
  profiles: ProfileView[];
  /** After an import or export: a sentence for the page's notice; `changed` when profiles were added. */
  onDone(message: string, changed: boolean): void;
}

/** Import… and Export… for the roles the contract lets (ops); absent for the others. */
export function TransferToolbar({ profiles, onDone }: Props) {
  const mayImport = usePermission('connections.import.commit');
  const mayExport = usePermission('connections.export');
  const [open, setOpen] = useState<'import' | 'export'>();
  // Profiles from the server configuration or the embedded server are not the user's to export.
  const exportable = profiles.filter((p) => p.source === 'user');
  if (!mayImport.allowed && !mayExport.allowed) return null;
  return (
    <>
      {mayImport.allowed && (
        <button type="button" className="btn" onClick={() => setOpen('import')} data-testid="connections-import">
          Import…
        </button>
      )}
      {mayExport.allowed && (
        <button
          type="button"
          className="btn"
          onClick={() => setOpen('export')}
          disabled={exportable.length === 0}
          title={exportable.length === 0 ? 'No profile of yours to export: those from the server configuration cannot be.' : undefined}
          data-testid="connections-export"
        >
          Export…
        </button>
      )}
      {open === 'import' && (
        <ImportDialog
          onClose={() => setOpen(undefined)}
          onDone={(m) => {
            setOpen(undefined);
            onDone(m, true);
          }}
        />
      )}
      {open === 'export' && (
        <ExportDialog
          profiles={exportable}
          onClose={() => setOpen(undefined)}
          onDone={(m) => {
            setOpen(undefined);
            onDone(m, false);
          }}
        />
      )}
    </>
  );
}
