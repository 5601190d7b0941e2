/** The export job: what the CLI, the rpc binding and the web server's download route use. */
export { ExportJobs, type ExportDownload } from './exportJobs';
export { runExport, exportFileName, exportContentType, type ExportRun, type ExportSink } from './runExport';
export { startDownloadExport, startFileExport, type StartedExport } from './startExport';
export { CSV_COLUMNS } from './lines';
