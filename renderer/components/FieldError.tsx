/** The server's message for one form field, tied to the input by id for screen readers. */
export function FieldError({ field, id, message }: { field: string; id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <span className="field-error" id={id} data-testid={`field-error-${field}`}>
      {message}
    </span>
  );
}
