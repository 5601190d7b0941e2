import { Fragment } from 'react';
import type { ConfigNode, ConfigParam } from '../../../app/schemas/config';
import type { Section } from './configModel';
import { EditForm } from './EditForm';
import { NodeHead } from './NodeHead';
import { ValueCell } from './ValueCell';

interface Props {
  profileId: string;
  sections: readonly Section[];
  /** Every node, for the edit form's targets. */
  nodes: readonly ConfigNode[];
  /** The nodes shown as columns, and their indexes in `nodes` (a cell's place in `cells`). */
  columns: readonly number[];
  /** Ops on an editable profile: Edit buttons and Rewrite. */
  editable: boolean;
  editing: string | undefined;
  onEdit(name: string | undefined): void;
  onChanged(): void;
  onRewrite(address: string): void;
  rewriting: boolean;
}

const NAME_WIDTH = 300;
const NODE_MIN_WIDTH = 200;

/** The parameters as rows, one column per shown node, a section per group; an Edit opens its form beneath the row. */
export function ConfigTable(p: Props) {
  const shown = p.columns.map((i) => p.nodes[i]).filter((n): n is ConfigNode => n !== undefined);
  const initial = (param: ConfigParam) => (param.secret ? '' : (p.columns.map((i) => param.cells[i]?.value).find((v) => v !== undefined) ?? ''));
  return (
    <div className="cfg-scroll">
      {/* Fixed layout: the node columns share the width evenly, and keep 200 px each however many are shown. */}
      <table className="data-table cfg-table" data-testid="config-table" style={{ minWidth: NAME_WIDTH + shown.length * NODE_MIN_WIDTH }}>
        <colgroup>
          <col style={{ width: NAME_WIDTH }} />
          {shown.map((n) => (
            <col key={n.address} />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className="cfg-name-col">
              Parameter
            </th>
            {shown.map((n) => (
              <th scope="col" key={n.address}>
                <NodeHead node={n} onRewrite={p.editable ? p.onRewrite : undefined} rewriting={p.rewriting} />
              </th>
            ))}
          </tr>
        </thead>
        {p.sections.map((s) => (
          <tbody key={s.group} data-testid="config-section" data-group={s.group}>
            <tr className="cfg-group-row">
              <th scope="colgroup" colSpan={shown.length + 1}>
                <h2>
                  {s.label} <span className="muted">({s.params.length})</span>
                </h2>
              </th>
            </tr>
            {s.params.map((param) => (
              <Fragment key={param.name}>
                <tr data-testid="config-row" data-name={param.name} data-differs={param.differs}>
                  <th scope="row" className="cfg-name-col">
                    <span className="cfg-name-cell">
                      <span className="cfg-name-text">
                        <span className="cfg-name">{param.name}</span>
                        {param.secret && <span className="tag">secret</span>}
                        {param.aliases !== undefined && <span className="cfg-alias muted">also {param.aliases.join(', ')}</span>}
                      </span>
                      {p.editable && (
                        <button
                          type="button"
                          className="btn btn-small cfg-edit-button"
                          aria-label={`Edit ${param.name}`}
                          aria-expanded={p.editing === param.name}
                          onClick={() => p.onEdit(p.editing === param.name ? undefined : param.name)}
                          data-testid="config-edit-open"
                        >
                          Edit
                        </button>
                      )}
                    </span>
                  </th>
                  {p.columns.map((i) => (
                    <ValueCell key={i} cell={param.cells[i]} address={p.nodes[i]?.address ?? ''} />
                  ))}
                </tr>
                {p.editing === param.name && (
                  <tr className="cfg-edit-row">
                    <td colSpan={shown.length + 1}>
                      <EditForm
                        profileId={p.profileId}
                        param={param}
                        nodes={p.nodes}
                        initial={initial(param)}
                        onDone={p.onChanged}
                        onClose={() => p.onEdit(undefined)}
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
