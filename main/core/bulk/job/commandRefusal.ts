import { readRefusal } from '../../redis/refusal';

/**
 * Managed services (ElastiCache, Azure Cache, Memorystore, Redis Enterprise)
 * rename or drop admin commands such as CONFIG and BGSAVE, and an ACL user
 * may lack them: the reply is then "unknown command", "unsupported command"
 * or NOPERM. Those mean "not available here", not "the load failed".
 * Returns the server's text when the error is such a refusal.
 */
export function commandRefusal(err: unknown): string | undefined {
  // Read by the one refusal reader; the load says the server's own words, so the command tried
  // (which only names the refusal) is left blank and an unknown subcommand still counts.
  return readRefusal(err, [''])?.message;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
