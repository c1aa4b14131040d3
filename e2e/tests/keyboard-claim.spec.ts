// Claiming a profile with the keyboard alone (support/keyboard.ts): a new member registered under the name of an
// unclaimed demo profile logs in, opens it and claims it through the Claim dialog (once cancelled with Escape,
// then taken), the claim then waiting for review; a contributor then rejects the claim through the profile's
// Claim review and its confirmation dialog, which leaves the demo profile unclaimed as it was, for the next run.
// Focus is asserted as each dialog opens and closes, and axe finds nothing on either screen.
import { DEMO, registerAccount } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { expectFocusOn, logInByKeyboard, tabTo } from './support/keyboard.ts';
import { apiLogin, unclaimedProfiles } from './support/profiles.ts';

test('claim a profile, and a contributor rejects the claim: by keyboard alone', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const concierge = await apiLogin(request, DEMO.concierge);
  const target = (await unclaimedProfiles(request, concierge.token)).find(
    (p) => p.work_email !== DEMO.newbie.email && p.profile_picture && !p.claim_pending,
  );
  test.skip(!target, 'every demo profile is claimed already: a fresh database has some to claim');
  if (!target) return;
  const name = `${target.first_name} ${target.last_name}`;
  const account = await registerAccount(request, true, {
    firstName: target.first_name,
    lastName: target.last_name,
  });

  await logInByKeyboard(page, account);
  await expect(page).toHaveURL(/\/profile\/create$/);
  const claimIt = page.getByRole('button', { name: 'Claim this profile' });
  const claim = page.getByRole('dialog', { name: 'Claim this profile?' });
  const claimProfile = claim.getByRole('button', { name: 'Claim profile' });
  await step(page, 'the Claim dialog', async () => {
    await page.goto(`/profile/${target.profile_id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await tabTo(page, claimIt);
    await page.keyboard.press('Enter');
    // No field to fill: the dialog starts on what it is for.
    await expectFocusOn(page, claimProfile);
  });
  await step(page, 'cancelled, then claimed', async () => {
    await page.keyboard.press('Escape');
    await expect(claim).toBeHidden();
    await expectFocusOn(page, claimIt);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, claimProfile);
    await page.keyboard.press('Enter');
    await expect(claim).toBeHidden();
    // Claim this profile went with the claim: the focus is on the notice that says what happens next.
    await expectFocusOn(page, page.getByRole('status', { name: 'Your claim is pending review' }));
  });

  const desk = await browser.newContext();
  try {
    const deskPage = await desk.newPage();
    await logInByKeyboard(deskPage, DEMO.concierge);
    const review = deskPage.getByRole('region', { name: 'Claim review' });
    const reject = review.getByRole('button', { name: 'Reject claim' });
    const sure = deskPage.getByRole('dialog', { name: 'Reject this claim?' });
    await step(deskPage, "the claim review's confirmation", async () => {
      await deskPage.goto(`/profile/${target.profile_id}`);
      await expect(review).toContainText(account.email);
      await tabTo(deskPage, reject);
      await deskPage.keyboard.press('Enter');
      // A confirmation of what cannot be undone starts on the way out.
      await expectFocusOn(deskPage, sure.getByRole('button', { name: 'Cancel' }));
    });
    await step(deskPage, 'cancelled, then rejected', async () => {
      await deskPage.keyboard.press('Escape');
      await expect(sure).toBeHidden();
      await expectFocusOn(deskPage, reject);
      await deskPage.keyboard.press('Enter');
      await tabTo(deskPage, sure.getByRole('button', { name: 'Reject claim' }), { limit: 1 });
      await deskPage.keyboard.press('Enter');
      await expect(review).toHaveCount(0);
      // The review and its buttons are gone: the focus is on the line that says what was decided.
      await expectFocusOn(
        deskPage,
        deskPage
          .getByRole('status')
          .filter({ hasText: 'Claim rejected: the profile is unclaimed again, exactly as it was.' }),
      );
    });
  } finally {
    await desk.close();
  }
});
