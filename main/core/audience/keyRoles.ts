import type { LayoutKeys, MembershipKind } from './layoutKeys';

/** What a key is in a layout: an attribute value's members, a day's activity, or another data key. */
export type KeyRole =
  { kind: 'attr'; layout: MembershipKind; name: string; value: string } | { kind: 'day'; layout: MembershipKind; day: string } | { kind: 'data' };

interface Compiled {
  re: RegExp;
  order: string[];
  /** Characters outside placeholders: the more, the more specific the template. */
  literal: number;
  role(values: Record<string, string>): KeyRole;
}

/**
 * Names and values may hold any character (the expression quotes values; the builder says
 * when a name cannot be typed). Lazy, so with two placeholders in a row the first is the
 * shortest: `attr:home town:a:b` reads as name "home town", value "a:b".
 */
const PLACEHOLDER: Record<string, string> = { name: '([\\s\\S]+?)', value: '([\\s\\S]+?)', day: '(\\d{4}-\\d{2}-\\d{2})', id: '(\\d+)' };

function compile(template: string, role: Compiled['role']): Compiled {
  const order: string[] = [];
  let literal = template.length;
  const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{(name|value|day|id)\\\}/g, (_, p: string) => {
    order.push(p);
    literal -= p.length + 2;
    return PLACEHOLDER[p] as string;
  });
  return { re: new RegExp(`^${source}$`), order, literal, role };
}

/**
 * Reads keys back into the layout's terms. A key may fit two templates (`attr:x:y:set`
 * fits `attr:{name}:{value}` with value "y:set" as well as `attr:{name}:{value}:set`):
 * the template with the most literal text wins, which is the one written for it.
 */
export class KeyRoles {
  private readonly compiled: Compiled[];

  constructor(keys: LayoutKeys) {
    const l = keys.layout;
    const p = keys.prefix;
    const kinds: MembershipKind[] = ['bitmap', 'set'];
    this.compiled = kinds.flatMap((layout) => [
      compile(p + (layout === 'bitmap' ? l.bitmapAttr : l.setAttr), (v) => ({ kind: 'attr', layout, name: v['name'] as string, value: v['value'] as string })),
      compile(p + (layout === 'bitmap' ? l.bitmapActive : l.setActive), (v) => ({ kind: 'day', layout, day: v['day'] as string })),
      compile(p + (layout === 'bitmap' ? l.bitmapAll : l.setAll), () => ({ kind: 'data' })),
    ]);
    this.compiled.push(compile(p + l.userDays, () => ({ kind: 'data' })));
  }

  /** The key's role by the most specific template it fits; undefined when it fits none. */
  of(key: string): KeyRole | undefined {
    let best: { c: Compiled; m: RegExpExecArray } | undefined;
    for (const c of this.compiled) {
      if (best !== undefined && c.literal <= best.c.literal) continue;
      const m = c.re.exec(key);
      if (m !== null) best = { c, m };
    }
    if (best === undefined) return undefined;
    const { c, m } = best;
    return c.role(Object.fromEntries(c.order.map((name, i) => [name, m[i + 1] as string])));
  }
}
