import type { KeyType } from '../../../app/schemas/sampling';
import { TYPE_COLORS } from './report';

/** A type's name with its chart colour. */
export function TypeName({ type }: { type: KeyType }) {
  return (
    <span className="smp-type">
      <span className="smp-swatch" style={{ background: TYPE_COLORS[type] }} aria-hidden="true" />
      {type}
    </span>
  );
}
