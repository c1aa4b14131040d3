// jsdom has no <dialog> methods: stand-ins open and close it the way a browser's do, 'close' event included.

/** Gives jsdom's HTMLDialogElement showModal() and close(); does nothing where they exist. */
export function fillInDialog(): void {
  if (!HTMLDialogElement.prototype.showModal) {
    HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
  }
}
