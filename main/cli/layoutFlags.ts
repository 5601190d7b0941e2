import { AppError } from '../../app/errors';
import type { AudienceLayoutInput } from '../../app/schemas/audience';

/** The layout flags `audience` and `demo-data` share, so both name keys alike. */
export const LAYOUT_OPTIONS = {
  'hash-tag': { type: 'string' },
  'scratch-prefix': { type: 'string' },
  layout: { type: 'string' },
} as const;

export const LAYOUT_HELP = `  --hash-tag T          keys are {T}:attr:…, {T}:active:…: one cluster slot
  --scratch-prefix P    where temporary keys go (cacheboard:trial:audience:)
  --layout JSON         other key templates, e.g. '{"setAttr":"a:{name}:{value}",
                        "userDays":"u:{id}:d"}' (fields: bitmapAttr, bitmapActive,
                        bitmapAll, setAttr, setActive, setAll, userDays)
`;

/** The layout the flags describe (validated later by the contract's schema). */
export function layoutFlags(v: { 'hash-tag'?: string; 'scratch-prefix'?: string; layout?: string }): AudienceLayoutInput {
  let extra: unknown = {};
  if (v.layout !== undefined) {
    try {
      extra = JSON.parse(v.layout);
    } catch (e) {
      throw new AppError('VALIDATION', `--layout must be a JSON object: ${e instanceof Error ? e.message : String(e)}`, 'layout');
    }
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) throw new AppError('VALIDATION', '--layout must be a JSON object', 'layout');
  }
  return {
    ...(extra as AudienceLayoutInput),
    ...(v['hash-tag'] === undefined ? {} : { hashTag: v['hash-tag'] }),
    ...(v['scratch-prefix'] === undefined ? {} : { scratchPrefix: v['scratch-prefix'] }),
  };
}

/** The flag a layout field's problem is reported against (`layout.hashTag` → hash-tag). */
export function layoutFlagOf(path: string): string {
  if (path === 'layout.hashTag') return 'hash-tag';
  if (path === 'layout.scratchPrefix') return 'scratch-prefix';
  return 'layout';
}
