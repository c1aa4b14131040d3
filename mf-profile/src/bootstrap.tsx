// Stand-alone development page (rsbuild dev): renders the exposed screens without the shell.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import ProfileCreate from './ProfileCreate';
import ProfilePage from './ProfilePage';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <Routes>
          <Route path="/profile/:id" element={<ProfilePage />} />
          <Route path="*" element={<ProfileCreate />} />
        </Routes>
      </BrowserRouter>
    </StrictMode>,
  );
}
