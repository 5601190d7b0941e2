import type { SamplingReport } from '../../../app/schemas/sampling';
import { downloadText } from '../../lib/download';
import { CSV_LAYOUT, exportName, reportCsv } from './exportReport';

/** Save the report: JSON exactly as the server sent it, or the tables as one CSV file in sections. */
export function ExportButtons({ report, profileName, partial }: { report: SamplingReport; profileName: string; partial: boolean }) {
  const note = partial ? ' (this run did not finish: the figures cover what it examined)' : '';
  return (
    <span className="smp-export" role="group" aria-label="Export the report">
      <button
        type="button"
        className="btn btn-small"
        title={`The report as JSON, exactly as the server sent it${note}`}
        data-testid="sampling-export-json"
        onClick={() => downloadText(exportName(report, profileName, 'json', new Date()), `${JSON.stringify(report, null, 2)}\n`, 'application/json')}
      >
        Export JSON
      </button>
      <button
        type="button"
        className="btn btn-small"
        title={`${CSV_LAYOUT} Text cells that a spreadsheet would run as a formula (= + - @) start with a ' .${note}`}
        data-testid="sampling-export-csv"
        onClick={() => downloadText(exportName(report, profileName, 'csv', new Date()), reportCsv(report, profileName), 'text/csv;charset=utf-8')}
      >
        Export CSV
      </button>
    </span>
  );
}
