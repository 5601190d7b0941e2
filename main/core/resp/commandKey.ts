/** Which commands name a key first: shared with the renderer (SLOWLOG links), so it lives in app/. */
export { takesKey } from '../../../app/commandKey';
