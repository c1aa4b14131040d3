// The accessibility statement: reachable from the footer of every screen, signed in or not, its way to report a
// barrier is an email to the deployment's access address, and the tab is titled after it (each screen's h1).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BARRIER_REPORT_SUBJECT, STATEMENT_REVIEWED } from '../src/pages/AccessibilityStatement';
import { APP_CONFIG, renderAt, routeFetch } from './support';

describe('accessibility statement', () => {
  it('is linked from the footer of the landing page and opens on its heading', async () => {
    routeFetch({});
    renderAt('/');
    const footer = screen.getByRole('contentinfo');
    const about = within(footer).getByRole('navigation', { name: 'About Rotunda' });
    await userEvent.click(within(about).getByRole('link', { name: 'Accessibility statement' }));
    expect(screen.getByTestId('location').textContent).toBe('/accessibility');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' });
    expect(document.activeElement).toBe(heading);
  });

  it('names the standard, the limitations and the date it was reviewed', async () => {
    routeFetch({});
    renderAt('/accessibility');
    await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' });
    expect(screen.getByText(/WCAG\) 2\.1 at level AA/)).toBeTruthy();
    const limits = screen.getByRole('region', { name: 'Known limitations' });
    expect(within(limits).getAllByRole('listitem').length).toBeGreaterThan(0);
    expect(screen.getByText(new RegExp(`last reviewed on ${STATEMENT_REVIEWED}`))).toBeTruthy();
  });

  it('reports a barrier by email to the access address the deployment configures', async () => {
    routeFetch({});
    renderAt('/accessibility');
    const report = await screen.findByRole('link', {
      name: `Email ${APP_CONFIG.accessEmail} to report a barrier`,
    });
    expect(report.getAttribute('href')).toBe(
      `mailto:${APP_CONFIG.accessEmail}?subject=${encodeURIComponent(BARRIER_REPORT_SUBJECT)}`,
    );
  });

  it('says whom to email while the address cannot be read', async () => {
    routeFetch({ 'GET /app-config.json': Response.json({}, { status: 503 }) });
    renderAt('/accessibility');
    await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' });
    await waitFor(() => expect(screen.getByText(/Email the Rotunda team to report a barrier/)).toBeTruthy());
    expect(screen.queryByRole('link', { name: /report a barrier/ })).toBeNull();
  });

  it('titles the tab after the screen, as every screen is', async () => {
    routeFetch({});
    renderAt('/accessibility');
    await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' });
    await waitFor(() => expect(document.title).toBe('Accessibility statement – Rotunda'));
  });
});
