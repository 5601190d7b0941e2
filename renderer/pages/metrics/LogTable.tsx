import { takesKey } from '../../../app/redis/commands';
import { KeyOpenLink } from '../../components/KeyOpenLink';
import { clock, commandLine, hiddenArgsNote } from '../../lib/display';
import { truncate } from '../../lib/format';

/** Redis keeps 128 bytes of a long logged argument and says how many more there were: such a key is cut, so not linked. */
const CUT_ARG = /\.\.\. \(\d+ more bytes\)$/;

/** One entry of SLOWLOG or COMMANDLOG, its measure (a duration, a size) already written for a person. */
export interface LogRow {
  id: number;
  at: number;
  measure: string;
  args: readonly string[];
  argsHidden?: number | undefined;
  client: string;
  clientName: string;
}

/** The entry's key, when its command names one first (the logs record no DB: the link opens the profile's). */
function KeyLink({ profileId, args }: { profileId: string; args: readonly string[] }) {
  const [command, key] = args;
  if (command === undefined || key === undefined || !takesKey(command.toUpperCase())) return null;
  return (
    <KeyOpenLink profileId={profileId} escaped={key} cut={CUT_ARG.test(key)} fallback={null}>
      <span className="ov-key-link">↗ key</span>
    </KeyOpenLink>
  );
}

interface Props {
  profileId: string;
  caption: string;
  /** The measure's column head: Duration, Size. */
  measure: string;
  rows: readonly LogRow[] | undefined;
  /** What an empty log, or one not read yet, says. */
  empty: string;
  testId: string;
}

/**
 * A command log (SLOWLOG, or a COMMANDLOG type): arguments come from whoever wrote to the
 * server, shown as text, cut, whole in the title; an analyst's have their values withheld, with a note.
 */
export function LogTable({ profileId, caption, measure, rows, empty, testId }: Props) {
  return (
    <table className="data-table ov-table ov-slowlog-table" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">ID</th>
          <th scope="col">Time</th>
          <th scope="col" className="num">
            {measure}
          </th>
          <th scope="col">Command</th>
          <th scope="col">Client</th>
        </tr>
      </thead>
      <tbody>
        {rows === undefined || rows.length === 0 ? (
          <tr>
            <td colSpan={5} className="empty">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((e) => {
            const cmd = commandLine(e.args);
            const hidden = hiddenArgsNote(e.argsHidden);
            const client = e.clientName === '' ? e.client : `${e.client} (${e.clientName})`;
            return (
              <tr key={e.id} data-id={e.id}>
                <td className="mono">{e.id}</td>
                <td className="mono">{clock(e.at)}</td>
                <td className="num">{e.measure}</td>
                <td className="mono ov-cmd" title={hidden === undefined ? cmd.full : `${cmd.full} ${hidden}: values are shown to ops only`}>
                  <KeyLink profileId={profileId} args={e.args} />
                  {cmd.short}
                  {hidden !== undefined && <span className="muted ov-args-hidden"> {hidden}</span>}
                </td>
                <td className="mono ov-client" title={client}>
                  {truncate(client, 28)}
                </td>
              </tr>
            );
          })
        )}
      </tbody>
    </table>
  );
}
