/** What measures a group of keys into a KeySink: plain pipelined commands (Prober) or one script a group (ScriptProber). */
export interface KeyProber {
  probe(keys: Buffer[]): Promise<void>;
  /** Caveats to report (keys that changed type, scripts refused…). */
  warnings(): string[];
}
