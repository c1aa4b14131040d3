// Test helper: what axe finds on the page (or a part of it), every rule axe runs by default (WCAG 2.x A and AA
// and its best practices) and every impact, minor included: the bar is none at all (issue 36). One line each.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export async function axeFindings(
  page: Page,
  options: { include?: string; exclude?: string } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  if (options.exclude) builder = builder.exclude(options.exclude);
  const { violations } = await builder.analyze();
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}
