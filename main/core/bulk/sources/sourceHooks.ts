/** What a preview wants from a source beyond its commands. */
export interface SourceHooks {
  /** csv/tsv header, or the fields of the first ndjson object. */
  onColumns?(columns: string[]): void;
}
