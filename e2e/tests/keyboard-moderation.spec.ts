// Reporting, moderating and notifications with the keyboard alone (support/keyboard.ts): a member reports a new
// member's post through the Report dialog; a contributor hides it from the Moderation screen through its reason
// dialog; the author then opens the notification that says so from her Notifications page and marks the rest
// read. Focus is asserted as each dialog opens and closes and as controls change under it, and axe finds
// nothing on each of the three screens. The post made here is deleted at the end.
import { randomBytes } from 'node:crypto';
import { DEMO } from './support/accounts.ts';
import { ApiSession } from './support/api-session.ts';
import { expect, step, test } from './support/journey.ts';
import { expectFocusOn, logInByKeyboard, tabTo } from './support/keyboard.ts';
import { newMember } from './support/members.ts';
import { addComment, addPost, plainPostType, uniqueSurname } from './support/notifications.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

test('report a post, hide it as a contributor, read and clear the notifications: by keyboard alone', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const author = await newMember(
    request,
    { firstName: 'Tess', lastName: uniqueSurname('Keys') },
    { withProfile: true },
  );
  const title = `Keyboard report sample ${RUN}`;
  const postId = await addPost(request, author.session, title, await plainPostType(request));
  // A second notification for the author, so that marking the rest read has something to do.
  await addComment(request, await ApiSession.logIn(request, DEMO.concierge), postId, 'Noted, thanks.');
  const contexts = [];
  try {
    const member = await browser.newContext();
    contexts.push(member);
    const page = await member.newPage();
    await logInByKeyboard(page, DEMO.member);
    const search = page.getByRole('searchbox', { name: 'Search posts' });
    const card = page
      .getByRole('region', { name: 'Posts' })
      .getByRole('article', { name: title, exact: true });
    const reportButton = card.getByRole('button', { name: 'Report post' });
    const report = page.getByRole('dialog', { name: 'Report this post' });
    const firstReason = report.getByRole('radio').first();
    await step(page, 'the Report dialog', async () => {
      await tabTo(page, search);
      await page.keyboard.type(title);
      await expect(card).toBeVisible();
      await tabTo(page, reportButton);
      await page.keyboard.press('Enter');
      await expectFocusOn(page, firstReason);
    });
    // The arrow keys move through the reasons, choosing as they go.
    await step(page, 'reported', async () => {
      await page.keyboard.press('ArrowDown');
      await expect(report.getByRole('radio').nth(1)).toBeChecked();
      await tabTo(page, report.getByLabel('Note (optional)'));
      await page.keyboard.type('Sent from the keyboard');
      await tabTo(page, report.getByRole('button', { name: 'Send report' }));
      await page.keyboard.press('Enter');
      await expect(report.getByRole('status')).toHaveText('Thanks — a contributor will review it.');
      await expectFocusOn(page, report.getByRole('button', { name: 'Done' }));
      await page.keyboard.press('Enter');
      await expect(report).toBeHidden();
      await expectFocusOn(page, card.getByRole('button', { name: 'Reported post' }));
    });

    const desk = await browser.newContext();
    contexts.push(desk);
    const deskPage = await desk.newPage();
    await logInByKeyboard(deskPage, DEMO.concierge);
    const moderation = deskPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Moderation/ });
    const entry = deskPage.getByRole('article', { name: title, exact: true });
    const hide = entry.getByRole('button', { name: 'Hide', exact: true });
    const reason = deskPage.getByRole('dialog', { name: 'Hide this post' });
    await step(deskPage, "the Moderation screen's reason dialog", async () => {
      await tabTo(deskPage, moderation);
      await deskPage.keyboard.press('Enter');
      await expect(deskPage.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
      await tabTo(deskPage, hide, { limit: 120 });
      await deskPage.keyboard.press('Enter');
      await expectFocusOn(deskPage, reason.getByLabel('Reason'));
    });
    await step(deskPage, 'hidden', async () => {
      await deskPage.keyboard.type(`Reported from the keyboard (${RUN})`);
      await tabTo(deskPage, reason.getByRole('button', { name: 'Hide post' }));
      await deskPage.keyboard.press('Enter');
      await expect(reason).toBeHidden();
      // The Hide button gave way to Restore: the focus goes to the entry's heading.
      await expectFocusOn(deskPage, entry.getByRole('heading', { name: title }));
      await expect(entry.getByRole('status')).toContainText('report');
    });

    const own = await browser.newContext();
    contexts.push(own);
    const authorPage = await own.newPage();
    await logInByKeyboard(authorPage, author.account);
    const bell = authorPage.getByRole('banner').getByRole('link', { name: /^Notifications/ });
    await step(
      authorPage,
      'the Notifications page',
      async () => {
        await expect(bell).toHaveAccessibleName('Notifications, 2 unread', { timeout: 15_000 });
        // The bell sits before Log out, where the focus stays after logging in (the button Log in was).
        await tabTo(authorPage, bell, { back: true });
        await authorPage.keyboard.press('Enter');
        await expect(authorPage.getByRole('heading', { level: 1, name: 'Notifications' })).toBeFocused();
      },
      { settle: false },
    );
    const items = authorPage.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
    const hidden = items.filter({ hasNotText: 'commented' }).getByRole('link');
    const readAll = authorPage.getByRole('button', { name: 'Mark all as read' });
    await step(
      authorPage,
      'one opened, the rest marked read',
      async () => {
        await tabTo(authorPage, hidden);
        await authorPage.keyboard.press('Enter');
        await expect(authorPage).toHaveURL(new RegExp(`/public-square/post/${postId}$`));
        await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
        await authorPage.goBack();
        await expect(authorPage).toHaveURL(/\/notifications$/);
        await tabTo(authorPage, readAll);
        await authorPage.keyboard.press('Enter');
        await expect(authorPage.getByText('No unread notifications', { exact: true })).toBeVisible();
        await expect(bell).toHaveAccessibleName('Notifications');
        // Nothing is left to mark: the button says so where the focus stays, rather than dropping it.
        await expectFocusOn(authorPage, readAll);
        await expect(readAll).toHaveAttribute('aria-disabled', 'true');
      },
      { settle: false },
    );
  } finally {
    for (const context of contexts) await context.close();
    await request.delete('/api/posts/delete-post', {
      headers: await author.session.headers(),
      data: { post_id: postId },
    });
  }
});
