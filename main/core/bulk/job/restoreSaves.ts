import { resumeAutoSaves, type SaveSuspension } from './autoSaves';
import { errorText } from './commandRefusal';
import { CLEANUP_TIMEOUT_MS, withTimeout, type ControlLink } from './controlLink';
import type { LoadLog } from './loadLog';

/**
 * Automatic saves back as they were, on the control connection or, when it is
 * gone or blocked, a fresh one. A server that does not answer in time leaves
 * the journal in `journalDir` to the next start (saveJournal.ts).
 */
export async function restoreSaves(saves: SaveSuspension, link: ControlLink, log: LoadLog, journalDir: string): Promise<void> {
  try {
    const restored = await withTimeout(resumeAutoSaves(saves, link.cleanupConnections()), CLEANUP_TIMEOUT_MS, 'restoring the save config');
    if (restored !== undefined) {
      log.report.saveConfig = restored;
      if (!restored.restored && restored.note !== undefined) log.warn(`Automatic saves: ${restored.note}`);
    }
  } catch (err) {
    const original = saves.original ?? '';
    log.report.saveConfig = { original, restored: false, note: errorText(err) };
    log.warn(`Automatic saves may still be off: ${errorText(err)}; the journal in ${journalDir} restores them at the next start`);
  }
}
