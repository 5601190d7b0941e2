import { useState } from 'react';
import type { ValueBytes } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { ElementFind, FindStatus } from './ElementFind';
import { LoadMore } from './LoadMore';
import { useFindElements } from './useFindElements';
import { usePaged } from './usePaged';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';
import { RowActions } from './RowActions';
import { VirtualRows } from '../../../components/bytes/VirtualRows';

const ROW = 28;

/** A set by SSCAN pages (never SMEMBERS), with a member glob; ops add and remove members. */
export function SetView({ where, canEdit, edit, version }: ViewProps) {
  const bridge = useBridge();
  const paged = usePaged<ValueBytes, string>(`${where.key}|${version}`, '0', async (cursor) => {
    const r = await readPage(bridge, where, { type: 'set', cursor, count: 200 });
    return { items: r.members, next: r.cursor === '0' ? null : r.cursor, total: r.total };
  });
  const find = useFindElements(where, 'set', version);
  const rows = find.match === undefined ? paged.items : find.found.map((f) => f.element);
  const [member, setMember] = useState('');
  const typed = allTyped(member);
  const columns = canEdit ? 'minmax(0, 1fr) 90px' : 'minmax(0, 1fr)';
  return (
    <div className="kv-view" data-testid="kv-set">
      <div className="kv-view-bar">
        <ElementFind find={find} noun="members" />
      </div>
      {canEdit && (
        <form
          className="kv-form"
          data-testid="kv-set-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed) void edit.run({ op: 'set.add', member: typed[0] as string }).then((d) => d !== undefined && setMember(''));
          }}
        >
          <EscapedField label="Member" value={member} onChange={setMember} testId="kv-set-member" className="kv-grow" />
          <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || typed === undefined} data-testid="kv-set-add">
            Add member
          </button>
        </form>
      )}
      <div className="kv-head" style={{ gridTemplateColumns: columns }}>
        <span>Member</span>
        {canEdit && <span />}
      </div>
      <VirtualRows
        label="Members"
        testId="kv-rows"
        count={rows.length}
        rowHeight={ROW}
        columns={columns}
        row={(i) => {
          const m = rows[i] as ValueBytes;
          return (
            <>
              <ValueText value={m} testId="kv-cell-value" />
              {canEdit && (
                <RowActions busy={edit.busy} cut={m.truncated} onDelete={() => void edit.run({ op: 'set.remove', member: m.b64 })} deleteLabel="Remove" />
              )}
            </>
          );
        }}
      />
      {find.match === undefined ? (
        <LoadMore
          shown={paged.items.length}
          total={paged.total}
          noun="members"
          more={paged.more}
          loading={paged.loading}
          error={paged.error}
          onMore={paged.loadMore}
        />
      ) : (
        <FindStatus find={find} noun="members" one="member" />
      )}
    </div>
  );
}
