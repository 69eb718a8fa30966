import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { bootstrap } from './app/bootstrap';
import './index.css';

const root = document.getElementById('root');
if (root && bootstrap()) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
