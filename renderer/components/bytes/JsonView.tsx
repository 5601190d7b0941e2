import { useMemo } from 'react';
import { JsonTree } from './JsonTree';
import { parseJsonValue } from './jsonValue';

/** The loaded value as a JSON tree, or why it is not one (too big to parse here, partly loaded, not JSON). */
export function JsonView({ bytes, total }: { bytes: Uint8Array; total: number }) {
  const parsed = useMemo(() => parseJsonValue(bytes, total), [bytes, total]);
  if (!parsed.ok) {
    return (
      <p className="hint kv-json-why" data-testid="kv-json-why">
        {parsed.reason}
      </p>
    );
  }
  return <JsonTree value={parsed.value} />;
}
