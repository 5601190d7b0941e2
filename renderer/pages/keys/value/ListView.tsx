import { useState } from 'react';
import type { ValueBytes } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { Segmented } from '../../../components/Segmented';
import { formatCount } from '../../../lib/format';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { LoadMore } from './LoadMore';
import { useEditFocus } from './useEditFocus';
import { usePaged } from './usePaged';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';
import { RowActions } from './RowActions';
import { VirtualRows } from '../../../components/bytes/VirtualRows';

interface Item {
  index: number;
  value: ValueBytes;
}

const ROW = 28;

/** A list by LRANGE pages from the head or the tail (never `LRANGE 0 -1`), with each item's real index. */
export function ListView({ where, canEdit, edit, version }: ViewProps) {
  const bridge = useBridge();
  const [fromEnd, setFromEnd] = useState(false);
  const paged = usePaged<Item, number>(`${where.key}|${fromEnd}|${version}`, 0, async (start) => {
    const r = await readPage(bridge, where, { type: 'list', start, fromEnd, count: 200 });
    const next = start + r.items.length;
    // From the tail, the last item first: the page reads backwards, as the end it started from.
    return { items: fromEnd ? [...r.items].reverse() : r.items, next: r.items.length > 0 && next < r.total ? next : null, total: r.total };
  });
  const [value, setValue] = useState('');
  /** The item the form was filled from: saving sets that index, expecting that value. */
  const [from, setFrom] = useState<Item>();
  // A new version (an edit landed, or Reload): a form filled from the old rows would expect stale values.
  const [seenVersion, setSeenVersion] = useState(version);
  if (seenVersion !== version) {
    setSeenVersion(version);
    setFrom(undefined);
  }
  const typed = allTyped(value);

  const focus = useEditFocus();
  function done(d: unknown) {
    if (d === undefined) return;
    setValue('');
    setFrom(undefined);
    focus.closed();
  }

  const columns = canEdit ? '64px minmax(0, 1fr) 120px' : '64px minmax(0, 1fr)';
  return (
    <div className="kv-view" data-testid="kv-list" ref={focus.rootRef}>
      <div className="kv-view-bar">
        <Segmented
          label="Read from"
          value={fromEnd ? 'tail' : 'head'}
          onChange={(v) => setFromEnd(v === 'tail')}
          options={[
            { value: 'head', label: 'From the head' },
            { value: 'tail', label: 'From the tail' },
          ]}
          testId="kv-list-end"
        />
      </div>
      {canEdit && (
        <form
          className="kv-form"
          data-testid="kv-list-form"
          ref={focus.formRef}
          onSubmit={(e) => e.preventDefault()}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && from !== undefined) done(null);
          }}
        >
          <EscapedField
            label={from !== undefined ? `Item ${formatCount(from.index)}` : 'Item'}
            value={value}
            onChange={setValue}
            testId="kv-list-value"
            className="kv-grow"
          />
          {from !== undefined ? (
            <>
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={edit.busy || typed === undefined}
                onClick={() => typed && void edit.run({ op: 'list.set', index: from.index, value: typed[0] as string, expectValue: from.value.b64 }).then(done)}
                data-testid="kv-list-set"
              >
                Set item {from.index}
              </button>
              <button type="button" className="btn btn-small" onClick={() => done(null)} data-testid="kv-list-cancel">
                Cancel
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={edit.busy || typed === undefined}
                onClick={() => typed && void edit.run({ op: 'list.push', value: typed[0] as string, end: 'head' }).then(done)}
                data-testid="kv-list-push-head"
              >
                Push to head
              </button>
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={edit.busy || typed === undefined}
                onClick={() => typed && void edit.run({ op: 'list.push', value: typed[0] as string, end: 'tail' }).then(done)}
                data-testid="kv-list-push-tail"
              >
                Push to tail
              </button>
            </>
          )}
        </form>
      )}
      <div className="kv-head" style={{ gridTemplateColumns: columns }}>
        <span className="num">Index</span>
        <span>Item</span>
        {canEdit && <span />}
      </div>
      <VirtualRows
        label="Items"
        testId="kv-rows"
        count={paged.items.length}
        rowHeight={ROW}
        columns={columns}
        row={(i) => {
          const it = paged.items[i] as Item;
          return (
            <>
              <span className="num mono" data-testid="kv-index">
                {it.index}
              </span>
              <ValueText value={it.value} testId="kv-cell-value" />
              {canEdit && (
                <RowActions
                  busy={edit.busy}
                  cut={it.value.truncated}
                  editRow={String(it.index)}
                  onEdit={() => {
                    setFrom(it);
                    setValue(it.value.text);
                    focus.opened(String(it.index));
                  }}
                  onDelete={() => void edit.run({ op: 'list.remove', index: it.index, expectValue: it.value.b64 })}
                  deleteLabel="Remove"
                />
              )}
            </>
          );
        }}
      />
      <LoadMore
        shown={paged.items.length}
        total={paged.total}
        noun="items"
        more={paged.more}
        loading={paged.loading}
        error={paged.error}
        onMore={paged.loadMore}
      />
    </div>
  );
}
