import type { ConfigRefusal } from '../../../app/schemas/config';

/** CONFIG refused by the server (renamed, ACL): said once for every node that refused. */
export function RefusalNote({ refusal }: { refusal: ConfigRefusal }) {
  return (
    <section className="panel cfg-refusal" role="note" data-testid="config-refusal" data-kind={refusal.kind}>
      <h2>{refusal.kind === 'acl' ? 'CONFIG is not allowed for this user' : 'CONFIG is not available on this server'}</h2>
      <p>{refusal.message}</p>
      <p className="muted">
        Redis replied: <span className="mono">{refusal.reply}</span>
      </p>
    </section>
  );
}
