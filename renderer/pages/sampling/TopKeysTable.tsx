import type { KeyType, SamplingReport } from '../../../app/schemas/sampling';
import { KeyOpenLink } from '../../components/KeyOpenLink';
import { formatBytes, formatCount } from '../../lib/format';
import { KeyName } from './KeyName';
import { formatTtl, lengthUnit } from './report';
import { TypeName } from './TypeName';

type TopKey = SamplingReport['topByMemory'][number];

/** A key's length: bytes for a string, elements for the rest. */
function formatLength(type: KeyType, n: number): string {
  return lengthUnit(type) === 'bytes' ? formatBytes(n) : `${formatCount(n)} el.`;
}

interface Props {
  keys: readonly TopKey[];
  /** Length in one unit per table: elements of collections, or bytes of strings. */
  by: 'memory' | 'elements' | 'bytes';
  testId: string;
  /** Each key opens in the Keys page of this profile and DB. */
  profileId: string;
  db: number;
}

const CAPTIONS: Record<Props['by'], (n: number) => string> = {
  memory: (n) => `Top ${n} by memory`,
  elements: (n) => `Top ${n} by length in elements`,
  bytes: (n) => `Top ${n} strings by length in bytes`,
};
const NOTES: Record<Props['by'], string> = {
  memory: 'MEMORY USAGE',
  elements: 'hashes, lists, sets, zsets, streams: fields, items or members (strings apart: bytes are another unit)',
  bytes: 'STRLEN',
};

/** The biggest keys, like `redis-cli --memkeys` / `--bigkeys` but over this run's keys. */
export function TopKeysTable({ keys, by, testId, profileId, db }: Props) {
  return (
    <table className="data-table smp-table smp-top" data-testid={testId}>
      <caption>
        {CAPTIONS[by](keys.length)}
        <span className="muted smp-caption-sub"> {NOTES[by]}</span>
      </caption>
      <colgroup>
        <col className="smp-col-rank" />
        <col />
        <col className="smp-col-type" />
        <col className="smp-col-enc" />
        <col className="smp-col-num" />
        <col className="smp-col-num" />
        <col className="smp-col-ttl" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col" className="num">
            #
          </th>
          <th scope="col">Key</th>
          <th scope="col">Type</th>
          <th scope="col">Encoding</th>
          <th scope="col" className={`num${by === 'memory' ? ' is-sorted' : ''}`}>
            Memory
          </th>
          <th scope="col" className={`num${by === 'memory' ? '' : ' is-sorted'}`}>
            Length
          </th>
          <th scope="col" className="num">
            TTL
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.length === 0 ? (
          <tr>
            <td colSpan={7} className="empty">
              No keys yet.
            </td>
          </tr>
        ) : (
          keys.map((k, i) => (
            <tr key={i}>
              <td className="num muted">{i + 1}</td>
              <td className="smp-key-cell">
                <KeyOpenLink profileId={profileId} db={db} escaped={k.key.text} cut={k.key.truncated} bytes={k.key.bytes}>
                  <KeyName name={k.key} />
                </KeyOpenLink>
              </td>
              <td>
                <TypeName type={k.type} />
              </td>
              <td className="mono">{k.encoding}</td>
              <td className="num">{formatBytes(k.memory)}</td>
              <td className="num">{formatLength(k.type, k.length)}</td>
              <td className="num">{formatTtl(k.ttl)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
