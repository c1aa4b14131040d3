// Renders the whole route table at a path, with the micro-frontends replaced by named stand-ins.
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppRoutes } from '../src/AppRoutes';

vi.mock('../src/remotes/federation', () => ({
  loadRemoteComponent: async (id: string) =>
    function RemoteStandIn() {
      return <h1>{id}</h1>;
    },
}));

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

export function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <LocationProbe />
    </MemoryRouter>,
  );
}
