/**
 * Views of jobs that ended, by job id, the newest `max` of them. Kept in memory only:
 * leaving a page and coming back shows a finished job at once without subscribing
 * again; after a reload the server's replay (it keeps recent jobs) fills the page instead.
 */
export class EndedViews<V> {
  private readonly views = new Map<string, V>();

  constructor(private readonly max = 20) {}

  get(jobId: string): V | undefined {
    return this.views.get(jobId);
  }

  keep(jobId: string, view: V): void {
    this.views.delete(jobId);
    this.views.set(jobId, view);
    for (const oldest of this.views.keys()) {
      if (this.views.size <= this.max) break;
      this.views.delete(oldest);
    }
  }
}
