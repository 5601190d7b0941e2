import type { ImportEntry } from '../../../app/schemas/profileTransfer';

/** What each entry of an import file becomes: where it points, what it brings, what was left out and why. */
export function ImportPreviewTable({ entries, onCollision }: { entries: ImportEntry[]; onCollision: 'rename' | 'skip' }) {
  return (
    <div className="pt-preview-wrap">
      <table className="pt-preview" data-testid="import-preview-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            <th scope="col">Address</th>
            <th scope="col">Brings</th>
            <th scope="col">Not imported</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.index} data-testid="import-entry" data-skipped={e.collision && onCollision === 'skip' ? 'true' : undefined}>
              <td>
                <span className="pt-name">{e.name}</span>
                {e.collision && (
                  <span className="hint pt-collision">
                    {onCollision === 'skip' ? 'name taken: skipped' : `name taken: imported as “${e.renamedTo ?? e.name}”`}
                  </span>
                )}
                {e.tags.length > 0 && (
                  <span className="pt-tags">
                    {e.tags.map((t) => (
                      <span key={t} className="tag">
                        {t}
                      </span>
                    ))}
                  </span>
                )}
              </td>
              <td>
                {e.kind}
                {e.tls ? ', TLS' : ''}
                {e.ssh ? ', SSH' : ''}
              </td>
              <td className="mono">{e.address}</td>
              <td>{e.secrets.length === 0 ? <span className="hint">no secrets</span> : e.secrets.join(', ')}</td>
              <td>
                {e.ignored.length === 0 ? (
                  <span className="hint">nothing</span>
                ) : (
                  <details>
                    <summary>
                      {e.ignored.length} field{e.ignored.length === 1 ? '' : 's'}
                    </summary>
                    <ul className="pt-ignored">
                      {e.ignored.map((i) => (
                        <li key={i.field}>
                          <span className="mono">{i.field}</span>: {i.why}
                        </li>
                      ))}
                    </ul>
                  </details>
                )}
                <details>
                  <summary>mapped</summary>
                  <ul className="pt-ignored">
                    {e.mapped.map((m) => (
                      <li key={m} className="mono">
                        {m}
                      </li>
                    ))}
                  </ul>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
