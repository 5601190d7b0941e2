import type { AudienceLayout, LayoutKind } from '../../../app/schemas/audience';

export interface AttrRef {
  name: string;
  value: string;
}

/** Attribute/activity layouts that have key templates for them (zset is per user). */
export type MembershipKind = Exclude<LayoutKind, 'zset'>;

function fill(template: string, values: Record<string, string>): string {
  let out = template;
  for (const [k, v] of Object.entries(values)) out = out.replace(`{${k}}`, v);
  return out;
}

/**
 * Key names of one layout. With a hash tag every key starts `{tag}:`: Redis hashes only
 * what is inside the first `{…}`, so all of them land in one cluster slot.
 */
export class LayoutKeys {
  readonly prefix: string;

  constructor(readonly layout: AudienceLayout) {
    this.prefix = layout.hashTag === undefined ? '' : `{${layout.hashTag}}:`;
  }

  attr(kind: MembershipKind, a: AttrRef): string {
    return this.prefix + fill(kind === 'bitmap' ? this.layout.bitmapAttr : this.layout.setAttr, { name: a.name, value: a.value });
  }

  active(kind: MembershipKind, day: string): string {
    return this.prefix + fill(kind === 'bitmap' ? this.layout.bitmapActive : this.layout.setActive, { day });
  }

  all(kind: MembershipKind): string {
    return this.prefix + (kind === 'bitmap' ? this.layout.bitmapAll : this.layout.setAll);
  }

  userDays(id: number | string): string {
    return this.prefix + fill(this.layout.userDays, { id: String(id) });
  }

  /** Every data template with the hash-tag prefix, placeholders kept: what scratch keys must not collide with. */
  templates(): string[] {
    const l = this.layout;
    return [l.bitmapAttr, l.bitmapActive, l.bitmapAll, l.setAttr, l.setActive, l.setAll, l.userDays].map((t) => this.prefix + t);
  }
}

/** The literal text before a template's first placeholder: every key it makes starts with it. */
export function literalHead(template: string): string {
  const i = template.search(/\{(name|value|day|id)\}/);
  return i < 0 ? template : template.slice(0, i);
}

/** A glob matching a literal text exactly (SCAN MATCH treats * ? [ ] \ as special). */
export function globEscape(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
