import { useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { TextField } from '../../components/TextField';
import { DEFAULT_LAYOUT, isDefaultLayout, LAYOUT_FIELDS, LAYOUT_LABELS, layoutErrors, type LayoutForm } from './layout';

interface Props {
  profile: Pick<ProfileView, 'topology'>;
  layout: LayoutForm;
  onLayout(layout: LayoutForm): void;
  /** The server's refusal of the layout (a scratch prefix that could name a data key…). */
  serverError: string | undefined;
}

/**
 * Where the audience data lives: one key template per kind of key, with the
 * placeholders the contract names. The defaults are what the demo writes;
 * an analyst's own data usually needs other names. Opens by itself on an error.
 */
export function LayoutPanel({ profile, layout, onLayout, serverError }: Props) {
  const errors = layoutErrors(profile, layout);
  const invalid = Object.keys(errors).length > 0 || serverError !== undefined;
  const custom = !isDefaultLayout(layout);
  const [open, setOpen] = useState(false);
  return (
    <details className="bulk-advanced aud-layout" open={open || invalid} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="aud-layout">
      <summary>
        Key layout{' '}
        <span className="aud-layout-state" data-testid="aud-layout-state">
          {invalid ? '· needs a fix' : custom ? '· custom' : '· the demo’s (default)'}
        </span>
      </summary>
      <p className="hint">
        Key templates: <span className="mono">{'{name}'}</span>, <span className="mono">{'{value}'}</span>, <span className="mono">{'{day}'}</span> and{' '}
        <span className="mono">{'{id}'}</span> stand for the parts of each key. Attributes are found by SCAN over these templates, and the demo writes into them
        too.
      </p>
      <div className="aud-layout-grid">
        {LAYOUT_FIELDS.map((field) => (
          <TextField
            key={field}
            label={LAYOUT_LABELS[field].label}
            field={`layout.${field}`}
            value={layout[field]}
            onChange={(value) => onLayout({ ...layout, [field]: value })}
            error={errors[field]}
            hint={LAYOUT_LABELS[field].hint}
            placeholder={field === 'hashTag' ? 'none' : DEFAULT_LAYOUT[field]}
            mono
            className="aud-field"
            testId={`aud-layout-${field}`}
          />
        ))}
      </div>
      {serverError !== undefined && (
        <p className="field-error" role="alert" data-testid="aud-layout-error">
          {serverError}
        </p>
      )}
      <div className="aud-layout-actions">
        <button type="button" className="btn" disabled={!custom} onClick={() => onLayout(DEFAULT_LAYOUT)} data-testid="aud-layout-reset">
          Reset to the demo’s layout
        </button>
      </div>
    </details>
  );
}
