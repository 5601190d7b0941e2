/**
 * The one IPC channel between preload and main, both directions. Its own file
 * so the preload bundle pulls in nothing else from main/electron.
 */
export const IPC_CHANNEL = 'cb:msg';
