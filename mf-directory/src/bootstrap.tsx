// Stand-alone development page (rsbuild dev): renders the exposed screen without the shell.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import Directory from './Directory';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <Directory />
      </BrowserRouter>
    </StrictMode>,
  );
}
