/**
 * Managed services (ElastiCache, Azure Cache, Memorystore, Redis Enterprise)
 * rename or drop admin commands such as CONFIG and BGSAVE, and an ACL user
 * may lack them: the reply is then "unknown command", "unsupported command"
 * or NOPERM. Those mean "not available here", not "the load failed".
 * Returns the server's text when the error is such a refusal.
 */
export function commandRefusal(err: unknown): string | undefined {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  if (/^NOPERM|unknown command|unknown subcommand|unsupported command|command not allowed|is disabled/i.test(text)) {
    return text;
  }
  return undefined;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
