import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { AudienceReport } from '../../../app/schemas/audience';
import { atomicWriteFileSync } from '../pool/atomicWrite';

/** Reports kept for comparing runs. */
const KEPT_REPORTS = 50;

/**
 * Finished audience reports, newest first, so runs can be compared later. With a file
 * (`$CACHEBOARD_DATA_DIR/audience-history.json`) they survive a restart; a file that does
 * not parse is ignored rather than trusted.
 */
export class AudienceHistory {
  private reports: AudienceReport[] = [];

  constructor(private readonly file?: string) {
    if (file === undefined) return;
    try {
      const parsed = z.array(AudienceReport).safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) this.reports = parsed.data.slice(0, KEPT_REPORTS);
    } catch {
      // No history yet.
    }
  }

  add(report: AudienceReport): void {
    this.reports.unshift(report);
    this.reports.length = Math.min(this.reports.length, KEPT_REPORTS);
    if (this.file === undefined) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      atomicWriteFileSync(this.file, JSON.stringify(this.reports));
    } catch (e) {
      console.error(`audience history: not saved (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  list(profileId?: string): AudienceReport[] {
    return this.reports.filter((r) => profileId === undefined || r.profileId === profileId);
  }
}
