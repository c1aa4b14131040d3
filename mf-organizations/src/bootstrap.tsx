// Stand-alone development page (rsbuild dev): renders the exposed screens without the shell.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import OrganizationList from './OrganizationList';
import OrganizationProfile from './OrganizationProfile';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <Routes>
          <Route path="/organization/:id" element={<OrganizationProfile />} />
          <Route path="*" element={<OrganizationList />} />
        </Routes>
      </BrowserRouter>
    </StrictMode>,
  );
}
