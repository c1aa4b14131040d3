// Test helper: what axe finds on the page (or a part of it), every rule axe runs by default (WCAG 2.x A and AA
// and its best practices) and every impact, minor included: the bar is none at all (ADR 0052).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { networkSettled } from './network.ts';

/** One line per finding: the rule, its impact, what it asks, and where. */
export async function axeFindings(page: Page, options: { include?: string } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (options.include) builder.include(options.include);
  const { violations } = await builder.analyze();
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

/**
 * Asserts axe finds nothing, after the page's requests have settled; `settle: false` for a page that holds a
 * stream open (a member's live notification count), whose test waits for what it checks instead.
 */
export async function expectNoAxeFindings(
  page: Page,
  { include, settle = true }: { include?: string; settle?: boolean } = {},
): Promise<void> {
  if (settle) await networkSettled(page);
  expect(await axeFindings(page, include ? { include } : {})).toEqual([]);
}
