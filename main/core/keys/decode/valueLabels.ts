import { PickleObject, PickleReference } from './pickleValue';

/**
 * How the decoders' own objects are shown: a pickle's class with the arguments and state it
 * would have been built from, a PHP object of a class nobody defined here, a Java object's
 * class, any other class instance by its constructor's name.
 */
/** php-serialize's stand-in for a class not in scope (unserialize with strict: false). */
function phpClassName(o: object): string | undefined {
  const name = (o as { __PHP_Incomplete_Class_Name?: unknown }).__PHP_Incomplete_Class_Name;
  return typeof name === 'string' && o.constructor?.name === '__PHP_Incomplete_Class' ? name : undefined;
}

export function labelOf(o: object): string | undefined {
  if (o instanceof PickleObject) return `${o.module}.${o.name}`;
  if (o instanceof PickleReference) return `<${o.kind}>`;
  const php = phpClassName(o);
  if (php !== undefined) return php;
  // java-deserialization keeps the class description under a hidden `class`.
  const javaClass = (o as { class?: { name?: unknown } }).class;
  if (
    javaClass !== undefined &&
    typeof javaClass === 'object' &&
    typeof javaClass.name === 'string' &&
    !Object.prototype.propertyIsEnumerable.call(o, 'class')
  ) {
    return javaClass.name;
  }
  if (Array.isArray(o) || o instanceof Map || o instanceof Set) return undefined;
  const proto = Object.getPrototypeOf(o) as { constructor?: { name?: unknown } } | null;
  const name = proto?.constructor?.name;
  return proto === null || proto === Object.prototype || typeof name !== 'string' || name === '' ? undefined : name;
}

export function entriesOf(o: object): Array<[unknown, unknown]> | undefined {
  if (o instanceof PickleObject) {
    const out: Array<[unknown, unknown]> = [];
    if (o.args.length > 0) out.push(['args', o.args]);
    if (o.state !== undefined) out.push(['state', o.state]);
    return out;
  }
  if (o instanceof PickleReference) return [['id', o.id]];
  if (phpClassName(o) !== undefined) return Object.entries(o).filter(([k]) => k !== '__PHP_Incomplete_Class_Name');
  return undefined;
}

/** The `long` package's 64-bit integers (java-deserialization's long fields): their digits. */
export function scalarOf(o: object): string | undefined {
  const l = o as { low?: unknown; high?: unknown; unsigned?: unknown; toString(): string };
  if (typeof l.low === 'number' && typeof l.high === 'number' && typeof l.unsigned === 'boolean' && o.constructor?.name === 'Long') return l.toString();
  return undefined;
}
