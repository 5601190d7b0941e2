import type { ProfileDraft, ProfileView } from '../../../app/schemas/connections';
import { numberInput } from '../../lib/formInput';

/** The form as typed: every text input is a string until it is sent. */
export interface FormValues {
  name: string;
  url: string;
  host: string;
  port: string;
  db: string;
  username: string;
  password: string;
  clearPassword: boolean;
  tlsEnabled: boolean;
  caFile: string;
  servername: string;
  verifyCert: boolean;
}

export const EMPTY_FORM: FormValues = {
  name: '',
  url: '',
  host: '',
  port: '',
  db: '',
  username: '',
  password: '',
  clearPassword: false,
  tlsEnabled: false,
  caFile: '',
  servername: '',
  verifyCert: true,
};

/** Editing starts from the saved profile; the password is write-only and starts empty. */
export function formFromProfile(p: ProfileView): FormValues {
  return {
    ...EMPTY_FORM,
    name: p.name,
    host: p.host,
    port: String(p.port),
    db: String(p.db),
    username: p.username ?? '',
    tlsEnabled: p.tls.enabled,
    caFile: p.tls.caFile ?? '',
    servername: p.tls.servername ?? '',
    verifyCert: p.tls.rejectUnauthorized,
  };
}

/** The draft `connections.add|update|test` take. Empty inputs are left out, not sent as "". */
export function toDraft(v: FormValues): ProfileDraft {
  const d: ProfileDraft = { name: v.name };
  const url = v.url.trim();
  if (url !== '') d.url = url;
  const host = v.host.trim();
  if (host !== '') d.host = host;
  const port = numberInput(v.port);
  if (port !== undefined) d.port = port;
  const db = numberInput(v.db);
  if (db !== undefined) d.db = db;
  if (v.username !== '') d.username = v.username;
  if (v.password !== '' && !v.clearPassword) d.password = v.password;
  d.tls = { enabled: v.tlsEnabled, rejectUnauthorized: v.verifyCert };
  if (v.caFile.trim() !== '') d.tls.caFile = v.caFile.trim();
  if (v.servername.trim() !== '') d.tls.servername = v.servername.trim();
  return d;
}

/** Fields the form has an input for, as the contract names them (dotted paths). */
export const FORM_FIELDS = [
  'name',
  'url',
  'host',
  'port',
  'db',
  'username',
  'password',
  'tls.enabled',
  'tls.caFile',
  'tls.servername',
  'tls.rejectUnauthorized',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/**
 * The form field an error points at. `connections.update` nests the draft under
 * `profile`, and `connections.test` under `draft`, so those prefixes are dropped.
 */
export function formFieldOf(field: string | undefined): FormField | undefined {
  if (field === undefined) return undefined;
  const f = field.replace(/^(profile|draft)\./, '');
  return (FORM_FIELDS as readonly string[]).includes(f) ? (f as FormField) : undefined;
}
