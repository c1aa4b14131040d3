// Renders the directory inside a memory router at a given URL, after an earlier page, with a probe that shows
// the current location and a Back button, so tests can check what the URL holds and what history keeps
// (also in a frame that keeps the screen mounted after it is left); signs a member in.
import { setSession } from '@rotunda/session';
import { makeMember } from '@rotunda/session/testing';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import Directory from '../../src/Directory';

function LocationProbe() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="location">{`${location.pathname}${location.search}`}</output>
      <button type="button" onClick={() => navigate(-1)}>
        Back
      </button>
    </>
  );
}

function ProfileStandIn() {
  const { id } = useParams();
  return <p>Profile {id}</p>;
}

export function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={['/public-square', path]} initialIndex={1}>
      <Routes>
        <Route path="/directory" element={<Directory />} />
        <Route path="/profile/:id" element={<ProfileStandIn />} />
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

/**
 * Like renderAt, in a host frame that keeps the screen mounted whatever the path (the shell's frame renders
 * the leaving screen once more with the next route's location), to check that it never writes to a URL that
 * is no longer its own.
 */
export function renderInLingeringFrame(path: string) {
  return render(
    <MemoryRouter initialEntries={['/public-square', path]} initialIndex={1}>
      <Routes>
        <Route path="*" element={<Directory />} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

export const location = () => screen.getByTestId('location').textContent;

export function signIn(): void {
  setSession(makeMember({ token: 'test-token' }));
}
