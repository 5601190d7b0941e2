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
