import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { onConnection } from './api/client.js';
import { whenOpen } from './api/when-open.js';
import { startLive } from './live.js';
import { useApp } from './store/index.js';
import './styles.css';

startLive();
void useApp.getState().loadAll();
// the first calls (queued by loadAll) go out as the socket opens; the app's first render follows them, so the shell
// answers while it runs (at most 250 ms later when the socket is slow to open)
whenOpen(onConnection, 250, () => createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>));
