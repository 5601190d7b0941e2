import * as z from 'zod';

/**
 * A command the server refused or does not have (a managed service's `rename-command X ""`, an
 * ACL user without @admin or @dangerous), and what a reply leaves out because of it: the page
 * shows it as one line, and the figures it could not read are absent ("unknown"), never 0.
 */
export const Restriction = z.object({
  /** Upper case, a subcommand after a space: "CONFIG GET", "INFO", "CLIENT KILL". */
  command: z.string().min(1).max(64),
  /** What is not shown or not done: "no persistence timing (save schedule, last save)". */
  effect: z.string().min(1).max(300),
});
export type Restriction = z.output<typeof Restriction>;

/** The restrictions a reply carries; absent or empty when nothing was refused. */
export const Restrictions = z.array(Restriction).max(32);

/** "INFO is not available here: no figures for this node." — the one line a page or the CLI shows. */
export function restrictionLine(r: Restriction): string {
  return `${r.command} is not available here: ${r.effect}.`;
}
