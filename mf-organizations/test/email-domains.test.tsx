// The Edit Organization form's email domains (verified employer): shown as a comma-separated list, checked with
// the rule the server applies (its message under the field), and sent normalized only when the list changed.
import { EMAIL_DOMAIN_MESSAGES } from '@rotunda/rules';
import { describe, expect, it } from 'vitest';
import { fieldProblems, initialValues, updateFrom } from '../src/edit/form';
import { organization } from './support/api';

const org = organization({ organization_id: 4, email_domains: ['sen.ca.gov', 'senate.ca.gov'] });

describe('email domains in the organization form', () => {
  it('shows the listed domains separated by commas', () => {
    expect(initialValues(org).email_domains).toBe('sen.ca.gov, senate.ca.gov');
  });

  it('sends the list normalized when it changed, and leaves it out when it did not', () => {
    const values = initialValues(org);
    expect(updateFrom(org, values).email_domains).toBeUndefined();
    expect(
      updateFrom(org, { ...values, email_domains: 'SEN.ca.gov\nwww.Senate.ca.gov, asm.ca.gov' })
        .email_domains,
    ).toEqual(['sen.ca.gov', 'senate.ca.gov', 'asm.ca.gov']);
    expect(updateFrom(org, { ...values, email_domains: '  ' }).email_domains).toEqual([]);
  });

  it("says the rule's problem under the field", () => {
    const values = initialValues(org);
    expect(fieldProblems(org, { ...values, email_domains: 'https://sen.ca.gov' }).email_domains).toBe(
      EMAIL_DOMAIN_MESSAGES.invalid('https://sen.ca.gov'),
    );
    expect(fieldProblems(org, { ...values, email_domains: 'gmail.com' }).email_domains).toBe(
      EMAIL_DOMAIN_MESSAGES.webmail('gmail.com'),
    );
    expect(fieldProblems(org, values).email_domains).toBeUndefined();
  });
});
