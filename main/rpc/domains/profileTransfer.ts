import { commitImport, exportProfiles, previewImport } from '../../core/profiles/profileTransfer';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';

type TransferHandlers = Pick<Handlers, 'connections.export' | 'connections.import.preview' | 'connections.import.commit'>;

export function profileTransferHandlers({ profiles }: CoreServices): TransferHandlers {
  return {
    'connections.export': (req) => exportProfiles(profiles, req),
    'connections.import.preview': ({ content, passphrase }) => previewImport(profiles, content, passphrase),
    'connections.import.commit': ({ content, passphrase, onCollision, dropSecrets }) => {
      const { imported, skipped } = commitImport(profiles, content, passphrase, { onCollision, dropSecrets });
      return { imported: imported.map((p) => profiles.view(p)), skipped };
    },
  };
}
