import pickleparser from 'pickleparser';

/**
 * A Python object a pickle names: its class (module and name), the arguments the pickle would
 * call it with, and the state it would set. Nothing is ever called: pickleparser is a parser
 * (a stack machine in JavaScript that never evaluates Python), and every GLOBAL or
 * STACK_GLOBAL it meets resolves here to an inert stand-in that only records what it was given,
 * so `os.system` followed by REDUCE is shown as `os.system("…")`, not run.
 */
export class PickleObject {
  state: unknown = undefined;
  constructor(
    readonly module: string,
    readonly name: string,
    readonly args: unknown[],
  ) {}
  /** BUILD hands the state here (pickleparser calls __setstate__ when an object has one). */
  __setstate__(state: unknown): void {
    this.state = state;
  }
}

/** A persistent id or extension code: shown, since nothing can resolve it. */
export class PickleReference {
  constructor(
    readonly kind: 'persistent id' | 'extension',
    readonly id: unknown,
  ) {}
}

function inertClass(module: string, name: string): (...args: unknown[]) => PickleObject {
  // A plain function, so REDUCE may call it and NEWOBJ may construct it: either way it only
  // returns a record (a constructor returning an object yields that object).
  return function PickleGlobal(...args: unknown[]): PickleObject {
    return new PickleObject(String(module), String(name), args);
  };
}

export function parsePickle(buf: Uint8Array): unknown {
  const parser = new pickleparser.Parser({
    nameResolver: { resolve: inertClass },
    persistentResolver: { resolve: (pid: string) => new PickleReference('persistent id', pid) },
    extensionResolver: { resolve: (code: number) => new PickleReference('extension', code) },
    // Maps and Sets keep any key (a tuple, a number) and never touch an object's prototype.
    unpicklingTypeOfDictionary: 'Map',
    unpicklingTypeOfSet: 'Set',
  });
  return parser.parse(buf);
}
