/** A field of a peer's file Cacheboard did not take, and why: shown in the import preview. */
export interface Ignored {
  field: string;
  why: string;
}

/** A profile's secrets as an export seals them: by field, and each SSH hop's (jumps first, the last server last). */
export interface ProfileSecrets {
  password?: string | undefined;
  sentinelPassword?: string | undefined;
  analystPassword?: string | undefined;
  ssh?: Array<string | null> | undefined;
}

/**
 * One entry of an import file, mapped to the input of ProfileDraft (so the form's own rules
 * check it) before it is parsed: what was mapped, what was left and why.
 */
export interface Candidate {
  draft: Record<string, unknown>;
  /** The export's sealed secrets, opened (Cacheboard files only; peers' files hold theirs in the draft). */
  secrets?: ProfileSecrets;
  mapped: string[];
  ignored: Ignored[];
}

export type ImportFormat = 'cacheboard' | 'redisinsight' | 'ardm';

export interface ParsedFile {
  format: ImportFormat;
  /** The file holds secrets (sealed, for Cacheboard's own; in clear, for the peers'). */
  secretsIncluded: boolean;
  candidates: Candidate[];
}

/** At most this many profiles in one file: a preview lists every one. */
export const MAX_IMPORT_PROFILES = 500;
