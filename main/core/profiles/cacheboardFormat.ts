import { AppError } from '../../../app/errors';
import { formatIssuePath } from '../pool/zodIssues';
import type { Candidate, ParsedFile } from './candidate';
import { ExportFile, SecretsPayload } from './exportFile';
import { openWithPassphrase } from './passphraseSeal';

/**
 * Cacheboard's own export. With sealed secrets the passphrase is required and must open them
 * before anything else is looked at: a wrong one stops the import with nothing written.
 */
export function parseCacheboardFile(json: unknown, passphrase: string | undefined): ParsedFile {
  const parsed = ExportFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : `${formatIssuePath(issue.path)}: ${issue.message}`;
    throw new AppError('VALIDATION', `Not a valid Cacheboard profiles file (${where}).`, 'file');
  }
  const file = parsed.data;
  let secrets: Array<ReturnType<typeof SecretsPayload.parse>[number]> = [];
  if (file.secrets !== undefined) {
    if (passphrase === undefined || passphrase === '') {
      throw new AppError('VALIDATION', 'This file holds secrets sealed with a passphrase: type the passphrase it was exported with.', 'passphrase');
    }
    const opened = SecretsPayload.safeParse(parseOrUndefined(openWithPassphrase(file.secrets, passphrase)));
    if (!opened.success || opened.data.length !== file.profiles.length) {
      throw new AppError('VALIDATION', 'The sealed secrets do not match the profiles in this file (one entry per profile expected).', 'file');
    }
    secrets = opened.data;
  }
  const candidates = file.profiles.map((draft, i): Candidate => {
    const s = secrets[i];
    return { draft, ...(s === undefined || s === null ? {} : { secrets: s }), mapped: Object.keys(draft), ignored: [] };
  });
  return { format: 'cacheboard', secretsIncluded: file.secrets !== undefined, candidates };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
