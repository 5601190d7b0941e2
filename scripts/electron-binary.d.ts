// Types for scripts/electron-binary.js, so TypeScript (e2e specs) can import it.
export declare const repoRoot: string;
export declare const HOW_TO_GET_ELECTRON: string;
export declare function findElectronBinary(opts?: {
  root?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}): { path: string; reason?: undefined } | { path: null; reason: string };
