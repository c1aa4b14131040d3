// Test support for components that use @rotunda/ui (published as @rotunda/ui/testing): jsdom has no
// <dialog> methods, so stand-ins open and close it the way a browser's do, 'close' event included; nor has it
// IntersectionObserver, so a stand-in the tests drive replaces it (intersection.ts).
export { FakeIntersectionObserver } from './intersection';

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
