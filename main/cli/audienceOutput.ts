import type { AudienceReport } from '../../app/schemas/audience';

/** The JSON `--json` prints: a stable interface for scripts (snake_case, like the other commands). */
export function audienceJson(r: AudienceReport) {
  return {
    where: r.normalized,
    from: r.from,
    to: r.to,
    db: r.db,
    trials: r.trials,
    warmup: r.warmup,
    audience_size: r.audienceSize,
    days: r.days.map((d) => ({ day: d.day, count: d.count })),
    strategies: r.strategies.map((s) => ({
      name: s.name,
      min_ms: s.minMs,
      p50_ms: s.p50Ms,
      p95_ms: s.p95Ms,
      mean_ms: s.meanMs,
      server_ms: s.serverMs,
      commands: s.commands,
      bytes_out: s.bytesOut,
      bytes_in: s.bytesIn,
      /** null when it ran; the reason when it did not. */
      skipped: s.skipped ?? null,
      matches: s.matches,
    })),
    counts_match: r.countsMatch,
    mismatches: r.mismatches.map((m) => ({ strategy: m.strategy, reference: m.reference, day: m.day ?? null, expected: m.expected, got: m.got })),
    warnings: r.warnings,
    seconds: r.seconds,
  };
}

const n = (x: number) => x.toLocaleString('en-US');
const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(11);

/** What a person reads: the answer, a table of the strategies, then the days. */
export function audienceText(r: AudienceReport): string {
  const lines = [`${r.normalized}, ${r.from} to ${r.to} (${r.days.length} days): ${n(r.audienceSize)} users`, ''];
  lines.push(`${'strategy'.padEnd(16)}${'min'.padStart(11)}${'p50'.padStart(11)}${'p95'.padStart(11)}${'server'.padStart(11)}  commands  bytes out/in`);
  for (const s of r.strategies) {
    if (s.skipped !== undefined) lines.push(`${s.name.padEnd(16)}skipped: ${s.skipped}`);
    else
      lines.push(
        `${s.name.padEnd(16)}${ms(s.minMs)}${ms(s.p50Ms)}${ms(s.p95Ms)}${s.serverMs < 0 ? '          ?' : ms(s.serverMs)}  ${String(s.commands).padStart(8)}  ${n(s.bytesOut)}/${n(s.bytesIn)}`,
      );
  }
  lines.push('');
  const ran = r.strategies.filter((s) => s.skipped === undefined).length;
  if (r.countsMatch) lines.push(`counts match across ${ran} strateg${ran === 1 ? 'y' : 'ies'}`);
  else {
    lines.push(`!!! COUNTS DIFFER: ${r.mismatches.length} differences`);
    for (const m of r.mismatches) lines.push(`!!! ${m.strategy} ${m.day ?? 'audience size'}: ${n(m.got)}, ${m.reference} says ${n(m.expected)}`);
  }
  for (const w of r.warnings.filter((x) => !x.startsWith('COUNTS DIFFER'))) lines.push(`warning: ${w}`);
  lines.push('', ...r.days.map((d) => `${d.day}  ${n(d.count).padStart(12)}`));
  return `${lines.join('\n')}\n`;
}
