import type { BrowserWindow, Dialog } from 'electron';

/**
 * The bulk-load file dialog runs in the main process and hands the runtime a
 * path; the renderer only ever sees the opaque file id the registry makes.
 */
export function createFilePicker(dialog: Dialog, window: () => BrowserWindow | null) {
  return async (): Promise<string | null> => {
    const options = {
      title: 'Choose a file to load',
      properties: ['openFile' as const],
      filters: [
        { name: 'Load files', extensions: ['csv', 'tsv', 'tab', 'ndjson', 'jsonl', 'resp', 'redis', 'txt', 'cmd', 'commands'] },
        { name: 'All files', extensions: ['*'] },
      ],
    };
    const win = window();
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
}

/** The export's save dialog, in the main process: a path for the runtime, which writes the file whole or not at all. */
export function createSavePicker(dialog: Dialog, window: () => BrowserWindow | null) {
  return async (fileName: string): Promise<string | null> => {
    const options = { title: 'Export keys to', defaultPath: fileName, properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const] };
    const win = window();
    const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return result.canceled || result.filePath === undefined || result.filePath === '' ? null : result.filePath;
  };
}
