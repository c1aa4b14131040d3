// The accessibility statement, /accessibility, linked from every screen's footer
// (docs/product.md#accessibility-statement, ADR 0052): the standard Rotunda is built and tested to, what does
// not meet it yet, when that was last checked, and how to report a barrier — by email to the provider's
// access address (the deployment's ACCESS_EMAIL, the same person who answers access requests), so a report
// reaches someone who can act on it. docs/accessibility.md is the full conformance report this summarises.
import { Page } from '@rotunda/ui';
import { Accessibility } from 'lucide-react';
import { useRef } from 'react';
import { useAccessEmail } from '../config';
import { useHeadingFocus } from './useHeadingFocus';
import '../styles/statement.css';

/** The day the statement was last checked against the tests' results; changed with the statement. */
export const STATEMENT_REVIEWED = '3 December 2026';

/** What a barrier report's email is titled, so the inbox can sort them. */
export const BARRIER_REPORT_SUBJECT = 'Accessibility barrier on Rotunda';

const LIMITATIONS = [
  'Posts, comments and biographies come from members: Rotunda cannot check that what members write is clear.',
  'Signing in with an agency account hands you to that agency’s own sign-in page, which Rotunda does not control.',
  'The exported data files (your data download, the directory’s spreadsheet) are plain data files without headings or structure beyond their columns.',
  'Rotunda is checked by automated tests of every screen and by keyboard-only journeys; it has not yet been reviewed by people who use screen readers every day.',
];

export function AccessibilityStatement() {
  const frame = useRef<HTMLDivElement>(null);
  useHeadingFocus(frame);
  const accessEmail = useAccessEmail();
  const reportHref = accessEmail
    ? `mailto:${accessEmail}?subject=${encodeURIComponent(BARRIER_REPORT_SUBJECT)}`
    : null;
  return (
    <div ref={frame}>
      <Page
        icon={Accessibility}
        title="Accessibility statement"
        lede="Rotunda is for every member of California’s public service, whatever the way they use a computer."
      >
        <div className="statement">
          <section aria-labelledby="statement-target">
            <h2 id="statement-target">Our standard</h2>
            <p>
              Rotunda aims to meet the Web Content Accessibility Guidelines (WCAG) 2.1 at level AA, the
              standard California requires of state websites. Every screen can be used with a keyboard alone,
              with a screen reader, zoomed to 400 % (320 pixels wide) without scrolling sideways, with wider
              text spacing, with reduced motion and with forced colours.
            </p>
            <p>
              Each release is checked by automated tests: every screen and dialog against the axe
              accessibility rules, at desktop and phone widths, with no finding of any kind allowed; every
              journey by keyboard alone; and the structure a screen reader reads (landmarks, headings,
              dialogs, announcements).
            </p>
          </section>
          <section aria-labelledby="statement-limits">
            <h2 id="statement-limits">Known limitations</h2>
            <ul className="statement__list">
              {LIMITATIONS.map((limitation) => (
                <li key={limitation}>{limitation}</li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="statement-report">
            <h2 id="statement-report">Report a barrier</h2>
            <p>
              If something in Rotunda is hard or impossible for you to use, tell us: what you were trying to
              do, on which page, and what you use to browse (for example a screen reader or zoom). Your email
              goes to the Rotunda team, the people who manage access to Rotunda, who will reply to you.
            </p>
            <p>
              {reportHref ? (
                <a className="button button--primary" href={reportHref}>
                  Email {accessEmail} to report a barrier
                </a>
              ) : (
                'Email the Rotunda team to report a barrier; their address is loading.'
              )}
            </p>
          </section>
          <section aria-labelledby="statement-date">
            <h2 id="statement-date">About this statement</h2>
            <p>
              This statement was last reviewed on {STATEMENT_REVIEWED}, against the results of Rotunda’s
              accessibility tests. The full Accessibility Conformance Report (VPAT 2.5, WCAG 2.1 A and AA) is
              available on request from the same address.
            </p>
          </section>
        </div>
      </Page>
    </div>
  );
}
