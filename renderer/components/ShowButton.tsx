interface Props {
  id: string;
  /** The run whose results are shown above, if one is. */
  shown: string | undefined;
  onShow(id: string | undefined): void;
  testId: string;
}

/** Show a kept run's results above the table; pressed again, back to the latest. */
export function ShowButton({ id, shown, onShow, testId }: Props) {
  const showing = shown === id;
  return (
    <button type="button" className="btn btn-small" aria-pressed={showing} onClick={() => onShow(showing ? undefined : id)} data-testid={testId}>
      {showing ? 'Showing' : 'Show'}
    </button>
  );
}
