/** The head of a per-master table: the Master column, then right-aligned numeric columns. */
export function MasterTableHead({ heads }: { heads: readonly string[] }) {
  return (
    <thead>
      <tr>
        <th scope="col">Master</th>
        {heads.map((h) => (
          <th key={h} scope="col" className="num">
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}
