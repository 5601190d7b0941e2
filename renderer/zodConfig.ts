import { config } from 'zod';

// Zod 4 probes for eval with `new Function("")` before its first object parse, to
// compile fast parsers. The probe is caught, but under our CSP (script-src 'self')
// Chromium still reports it as a violation. Jitless parsing is fast enough for forms
// and never probes. Imported first by main.tsx, before any schema is used.
config({ jitless: true });
