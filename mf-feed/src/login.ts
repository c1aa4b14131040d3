// Asking the shell to open its login dialog (a visitor's 'Create Post'). The shell owns that dialog; a remote
// cannot reach the shell's state, so it announces the request as a window event the shell listens for.

/** The window event the shell answers by opening the login dialog. */
export const LOGIN_REQUEST_EVENT = 'rotunda:login-requested';

export function requestLogin(): void {
  window.dispatchEvent(new CustomEvent(LOGIN_REQUEST_EVENT));
}
