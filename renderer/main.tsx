import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { startLive } from './live.js';
import { useApp } from './store/index.js';
import './styles.css';

startLive();
void useApp.getState().loadAll();
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
