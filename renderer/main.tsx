import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import { AuthGate } from './auth/AuthGate';
import './auth/auth.css';
import { BridgeProvider } from './bridge/BridgeContext';
import { getBridge } from './bridge';
import { applyTheme, storedTheme } from './lib/theme';
import './styles.css';

// Before the first paint: a remembered dark theme never flashes light.
applyTheme(storedTheme());

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');

const app = () => (
  <BridgeProvider bridge={getBridge()}>
    <App />
  </BridgeProvider>
);

// The desktop app has no sign-in; the web build asks the server first.
createRoot(root).render(<StrictMode>{window.bridge ? app() : <AuthGate>{app}</AuthGate>}</StrictMode>);
