// Sends the browser to another site's page (an agency's sign-in, through Keycloak): a whole-page navigation the
// router has no part in. A module of its own, so tests can see where the browser was sent.
export function leaveFor(url: string): void {
  window.location.assign(url);
}
