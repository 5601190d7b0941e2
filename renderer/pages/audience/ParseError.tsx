import type { ParseError as Failure } from '../../../app/schemas/audience';
import { caretLine } from './caret';

/**
 * A parse error drawn at its place: the line, a caret under the column, and the server's
 * message, once (it already says what was expected and what was found).
 */
export function ParseError({ text, error }: { text: string; error: Failure }) {
  const at = caretLine(text, error.position);
  return (
    <div className="aud-parse-error" role="alert" data-testid="aud-parse-error" data-position={error.position}>
      <pre className="aud-caret mono" aria-hidden="true">
        {at.text}
        {'\n'}
        <span className="aud-caret-mark">{`${' '.repeat(at.caret)}^`}</span>
      </pre>
      <p className="aud-parse-message" data-testid="aud-parse-message">
        {at.line > 1 && <span className="aud-parse-where">{`line ${at.line}, `}</span>}
        {error.message}
      </p>
    </div>
  );
}
